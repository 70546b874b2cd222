"""The worker's side: the shipped per-run function through a sweep, and run_chunk's records."""

from __future__ import annotations

import errno
import json
import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.batch import inputs as inputs_module
from robot_msgs.batch.inputs import (
    NOT_HASHED,
    content_digest,
    file_sha256,
    input_files,
    run_key,
    settings_identity,
)
from robot_msgs.batch.results_table import read_results
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.batch.tasks import Task, run_task
from robot_msgs.batch.worker import NOT_RUN, NOT_STORED, Chunk, Job, evaluate_task, run_chunk
from robot_msgs.errors import DataWarning
from robot_msgs.runs import RunSettings, load_runs
from tests.batch.batch_helpers import calls, make_tree, position_error, scripted, write_tum

if TYPE_CHECKING:
    from robot_msgs.batch.summary import SweepSummary
    from robot_msgs.batch.worker import ChunkResult
    from robot_msgs.compare import RunReport
    from robot_msgs.runs.spec import RunSpec

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
    assert "absent.tum: the run's reference does not exist (" in noref["error"]  # its entry
    assert set(summary.errors) == {"drift/line/1", "noref/line/1"}


def test_an_unreadable_file_in_a_folder_input_fails_its_run_and_the_sweep_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file without read permission in a run's folder-valued estimate stopped the whole
    sweep (``--serial``: bench ended on its PermissionError; local workers: retried, then
    "not evaluated"). It is that run's recorded failure, naming the file."""
    extra = '\n[[runs]]\nalgorithm = "bag"\nsequence = "line"\ntrial = 1\nestimate = "bag"\n'
    path = _seed_runs(tmp_path, extra)
    secret = tmp_path / "bag" / "a.db3"
    secret.parent.mkdir()
    secret.write_bytes(b"x")
    opened = Path.open

    def open_as_a_user(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == secret:  # mode 000 refuses every user but root, who runs the tests here
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return opened(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_as_a_user)
    summary = _run(path, tmp_path / "out")
    assert (summary.n_ok, summary.n_failed) == (2, 1)
    bag = _rows(summary)["bag"]
    assert (bag["status"], bag["error_type"]) == ("failed", "PermissionError")
    assert bag["error"].startswith(f"{secret}: Permission denied: a sweep reads its inputs")
    assert ResultStore(tmp_path / "out").count() == 3  # recorded as such


def test_an_estimate_linked_to_itself_fails_its_run_and_the_sweep_goes_on(
    tmp_path: Path,
) -> None:
    """An input that is a symbolic link loop raised ELOOP while it was stamped: ``--serial``
    ended the whole sweep ("ERROR: .../estimate.tum: too many levels of symbolic links"),
    and so did ``--resume`` checking the stored results."""
    path = _seed_runs(tmp_path, '\n[[runs]]\npath = "loop/line/1"\n')
    loop_tum = tmp_path / "loop" / "line" / "1" / "estimate.tum"
    loop_tum.parent.mkdir(parents=True)
    loop_tum.symlink_to("estimate.tum")
    for resume in (False, True):
        summary = _run(path, tmp_path / "out", resume=resume)
        assert (summary.n_ok, summary.n_failed) == (2, 1)
        said = f"OSError: {loop_tum}: Too many levels of symbolic links: a sweep reads"
        assert summary.errors["loop/line/1"].startswith(said)


def test_a_file_made_readable_is_evaluated_by_resume_without_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``chmod`` leaves a file's size and mtime as they were: ``--resume`` trusted the
    stamps of the failed run's record and kept its PermissionError once the file was
    readable (only ``--verify``, re-hashing every input, evaluated it)."""
    extra = (
        '\n[[runs]]\nalgorithm = "bag"\nsequence = "line"\ntrial = 1\nestimate = "reference.tum"\n'
    )
    path = _seed_runs(tmp_path, extra)
    for item in tmp_path.iterdir():  # modified long before hashed: trusted by their stamps
        os.utime(item, ns=(1, 10**18))
    secret = tmp_path / "reference.tum"
    opened = Path.open

    def open_as_a_user(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == secret:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return opened(self, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(Path, "open", open_as_a_user)
        before = _run(path, tmp_path / "out")
    assert (before.n_ok, before.n_failed) == (0, 3)
    assert "then bench --resume)" in before.errors["bag/line/1"]
    after = _run(path, tmp_path / "out", resume=True)  # now readable, stamps as they were
    assert (after.n_ok, after.n_failed) == (3, 0)


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
    [spec] = load_runs([tmp_path]).runs
    result = run_task(evaluate_task, Task(run=spec, settings=RunSettings(), digest=""))
    assert (result.status, result.error) == ("ok", "")
    report = result.run_report()
    assert (report.success, report.failure, report.version) == (False, "exit code 3", "1.2")
    ape = report.comparisons[APE]
    assert ape.stats["translation"].rms == pytest.approx(0.0, abs=1e-9)
    assert ape.settings is not None
    assert (ape.settings.align, ape.counts["matched"]) == ("se3", 101)


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
    # The digest in the table is the one computed from the shipped files' bytes.
    manifest = load_runs([path])
    [run] = manifest.runs
    key = run_key(settings_identity(manifest.settings.to_dict(), evaluate_task), run)
    hashes = {role: file_sha256(p) for role, p in input_files(run).items()}
    assert content_digest(key, hashes) == row["digest"]


def _job(out: Path, **kwargs: Any) -> Job:
    settings = RunSettings()
    return Job(
        settings=settings,
        shared=settings_identity(settings.to_dict(), kwargs.pop("fn", scripted)),
        out=str(out),
        session=kwargs.pop("session", "s1"),
        **kwargs,
    )


def _chunk(runs: tuple[RunSpec, ...]) -> Chunk:
    return Chunk(number=0, indices=tuple(range(len(runs))), runs=runs, attempts=(1,) * len(runs))


def _evaluate(fn: Any, job: Job, runs: tuple[RunSpec, ...]) -> ChunkResult:
    return run_chunk(fn, job, _chunk(runs))


def test_run_chunk_stores_each_result_with_the_hash_of_the_bytes_it_evaluated(
    tmp_path: Path,
) -> None:
    offsets = make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    runs = load_runs([tmp_path / "runs"]).runs
    job = _job(tmp_path / "out")
    done = _evaluate(scripted, job, runs)
    assert [(s.position, s.status, s.success, s.reused) for s in done.summaries] == [
        (0, "ok", True, False),
        (1, "ok", True, False),
    ]
    assert done.elapsed_s > 0
    store = ResultStore(tmp_path / "out")
    for run in runs:
        record = store.load(run_key(job.shared, run))
        assert record is not None
        assert record.inputs["estimate"][1] == file_sha256(run.estimate)
        assert record.inputs["reference"][1] == file_sha256(run.reference)
        assert record.session == "s1"
        report = record.result.report
        assert report is not None
        rms = report.comparisons["ape:translation"].stats["translation"].rms
        assert rms == pytest.approx(offsets["orb", "MH_01", run.trial], abs=1e-9)
    again = _evaluate(scripted, job, runs)  # the same bytes: kept, not evaluated again
    assert [s.reused for s in again.summaries] == [True, True]
    assert set(calls(tmp_path / "runs").values()) == {1}


def test_run_chunk_keeps_another_sessions_result_only_when_resuming(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    runs = load_runs([tmp_path / "runs"]).runs
    _evaluate(scripted, _job(tmp_path / "out", session="first"), runs)
    forced = _evaluate(scripted, _job(tmp_path / "out", session="second"), runs)
    assert [s.reused for s in forced.summaries] == [False]  # --force: recomputed
    resumed = _evaluate(scripted, _job(tmp_path / "out", session="third", reuse="any"), runs)
    assert [s.reused for s in resumed.summaries] == [True]  # --resume: kept
    assert calls(tmp_path / "runs") == {("orb", "MH_01", "1"): 2}


def test_run_chunk_recomputes_a_run_whose_bytes_changed(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    runs = load_runs([tmp_path / "runs"]).runs
    job = _job(tmp_path / "out", reuse="any")
    _evaluate(scripted, job, runs)
    estimate = Path(runs[0].estimate)
    t = np.arange(50) * 0.1
    write_tum(estimate, t, np.column_stack([t, 0 * t, 0 * t + 0.25]))  # 0.25 m along z
    [summary] = _evaluate(scripted, job, runs).summaries
    assert (summary.reused, summary.status) == (False, "ok")
    record = ResultStore(tmp_path / "out").load(run_key(job.shared, runs[0]))
    assert record is not None
    assert record.inputs["estimate"][1] == file_sha256(estimate)
    assert record.result.report is not None
    rms = record.result.report.comparisons["ape:translation"].stats["translation"].rms
    assert rms == pytest.approx(0.25, abs=1e-9)


def _rewrites_its_estimate(task: Task) -> RunReport:
    """Evaluate, then append a comment to the estimate: its bytes move under the worker."""
    report = scripted(task)
    marker = Path(task.run.estimate + ".rewrites")
    left = int(marker.read_text()) if marker.exists() else 10**6
    if left > 0:
        with Path(task.run.estimate).open("a") as handle:
            handle.write("# changed while read\n")
        marker.write_text(str(left - 1))
    return report


def test_an_input_changed_while_evaluated_is_retried_then_lost_never_stored(
    tmp_path: Path,
) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    runs = load_runs([tmp_path / "runs"]).runs
    Path(runs[0].estimate + ".rewrites").write_text("1")  # changes once, then holds still
    job = _job(tmp_path / "out", fn=_rewrites_its_estimate, retries=1)
    first, second = _evaluate(_rewrites_its_estimate, job, runs).summaries
    assert (first.status, first.reused) == ("ok", False)
    assert (second.status, second.error_type) == ("lost", "InputChanged")
    assert "an input changed while the run was evaluated, 2 times" in second.error
    assert calls(tmp_path / "runs") == {("orb", "MH_01", "1"): 2, ("orb", "MH_01", "2"): 2}
    store = ResultStore(tmp_path / "out")
    record = store.load(run_key(job.shared, runs[0]))
    assert record is not None
    assert record.inputs["estimate"][1] == file_sha256(runs[0].estimate)  # the final bytes
    assert store.load(run_key(job.shared, runs[1])) is None


def test_a_run_its_reader_refuses_is_recorded_without_reading_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sparse 64 MiB estimate of NUL bytes fails at its first byte; it is never hashed.

    WHY: a 4 GiB such estimate was hashed whole (33.6 s) before its reader refused it
    (``ape``: 0.6 s). Made a text file, the same session evaluates it and hashes it then.
    """
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    [run] = load_runs([tmp_path / "runs"]).runs
    estimate = Path(run.estimate)
    estimate.unlink()
    with estimate.open("wb") as handle:
        handle.truncate(64 << 20)  # sparse: no time to write, all of it to hash
    read: list[str] = []
    hashed = inputs_module.file_sha256

    def spy(path: Any, **kwargs: Any) -> str:
        if kwargs.get("read", True):
            read.append(str(path))
        return hashed(path, **kwargs)

    monkeypatch.setattr(inputs_module, "file_sha256", spy)
    job = _job(tmp_path / "out", fn=evaluate_task)
    [summary] = _evaluate(evaluate_task, job, (run,)).summaries
    assert (summary.status, summary.error_type) == ("failed", "FormatError")
    assert "not a text file (a NUL byte at byte 0)" in summary.error
    assert read == []
    store = ResultStore(tmp_path / "out")
    record = store.load(run_key(job.shared, run))
    assert record is not None
    assert record.inputs["estimate"][1] == record.inputs["reference"][1] == NOT_HASHED
    t = np.arange(50) * 0.1
    write_tum(estimate, t, np.column_stack([t, 0 * t + 0.5, 0 * t]))  # 0.5 m along y
    [again] = _evaluate(evaluate_task, job, (run,)).summaries
    assert (again.status, again.reused) == ("ok", False)  # nothing to compare: evaluated
    record = store.load(run_key(job.shared, run))
    assert record is not None
    assert record.inputs["estimate"][1] == hashed(estimate)
    hashes = {role: hashed(p) for role, p in input_files(run).items()}
    assert record.result.digest == content_digest(run_key(job.shared, run), hashes)


def test_a_record_that_cannot_be_written_makes_the_run_lost(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    runs = load_runs([tmp_path / "runs"]).runs
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "runs").write_text("a file where the records' folder should be")
    [summary] = _evaluate(scripted, _job(tmp_path / "out"), runs).summaries
    assert (summary.status, summary.error_type) == ("lost", "RecordNotStored")
    assert "cannot write it" in summary.error


def test_after_a_record_that_cannot_be_written_the_chunk_evaluates_nothing_more(
    tmp_path: Path,
) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=3)
    runs = load_runs([tmp_path / "runs"]).runs
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "runs").write_text("a file where the records' folder should be")
    summaries = _evaluate(scripted, _job(tmp_path / "out"), runs).summaries
    assert [(s.position, s.status, s.error_type) for s in summaries] == [
        (0, "lost", NOT_STORED), (1, "lost", NOT_RUN), (2, "lost", NOT_RUN),
    ]  # fmt: skip
    assert summaries[1].error.startswith("not evaluated: a record of its chunk could not be stored")
    assert calls(tmp_path / "runs") == {("orb", "MH_01", "1"): 1}  # the first only


def test_a_run_s_own_error_is_a_stored_failure(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    runs = load_runs([tmp_path / "runs"]).runs
    Path(runs[0].estimate).write_text("0 0 0 0 0 0 0 1\n")  # one pose: position_error refuses
    job = _job(tmp_path / "out", fn=position_error)
    [summary] = _evaluate(position_error, job, runs).summaries
    assert (summary.status, summary.error_type) == ("failed", "ValueError")
    record = ResultStore(tmp_path / "out").load(run_key(job.shared, runs[0]))
    assert record is not None
    assert record.result.error == "Expected 50 poses like the reference, got 1"


def test_a_sweep_reads_each_run_by_the_settings_reading_rules(tmp_path: Path) -> None:
    """``bench`` computes with KITTI rows as given when the settings say so, as ``rpe`` does."""
    from robot_msgs.evaluation import (
        EvaluationSettings,
        PairSettings,
        ReadSettings,
        rpe,
    )
    from robot_msgs.io import read_trajectory
    from robot_msgs.runs import MetricSpec
    from tests.cli.evaluation_files import write_kitti_run

    gt, est, manifest = write_kitti_run(tmp_path)
    [spec] = load_runs([manifest]).runs
    pairs = PairSettings(delta=1, delta_unit="f", all_pairs=True)
    metric = MetricSpec.build("rpe", pairs=pairs)
    rms = {}
    for rule in ("as_given", "nearest"):
        settings = RunSettings(reading=ReadSettings(kitti_rotations=rule), metrics=(metric,))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataWarning)  # the blocks are off on purpose
            result = run_task(evaluate_task, Task(run=spec, settings=settings, digest=""))
            ref = read_trajectory(gt, format="kitti", kitti_rotations=rule)
            traj = read_trajectory(est, format="kitti", kitti_rotations=rule)
        rms[rule] = result.run_report().comparisons[metric.name].stats["translation"].rms
        alone = rpe(ref, traj, settings=EvaluationSettings(align="se3"), pairs=pairs)
        assert rms[rule] == alone.stats["translation"].rms
    assert rms["as_given"] != rms["nearest"]


def test_a_failed_run_whose_inputs_were_not_hashed_has_no_digest_in_the_table(
    tmp_path: Path,
) -> None:
    """The failed run's digest is empty, as a run not evaluated has; the other's is its bytes'.

    WHY: the digest of inputs marked ``not hashed`` is the same whatever their bytes (a
    failure's estimate replaced by another that fails kept it); the results table showed
    it as a content digest (a review of c1638851).
    """
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    runs = load_runs([tmp_path / "runs"]).runs
    Path(runs[1].estimate).write_text("garbage line\n")
    manifest = load_runs([tmp_path / "runs"])
    summary = _run(tmp_path / "runs", tmp_path / "out")
    assert (summary.n_ok, summary.n_failed) == (1, 1)
    digests = {r["run"]: (r["status"], r["digest"]) for r in read_results(summary.table)}
    hashes = {role: file_sha256(p) for role, p in input_files(runs[0]).items()}
    key = run_key(settings_identity(manifest.settings.to_dict(), evaluate_task), runs[0])
    assert digests[runs[0].name] == ("ok", content_digest(key, hashes))
    assert digests[runs[1].name] == ("failed", "")
