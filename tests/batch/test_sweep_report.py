"""A sweep's folder read back as a Report: the same report, and hostile files refused.

The laws: ``read_sweep`` of what ``bench`` wrote equals what ``build_report``
makes of the same runs; a run the sweep could not evaluate is an error, or with
``partial`` counted in a note; nothing
but the package's errors escapes for any bytes in ``summary.json`` or ``reports.json``
(mutants of real ones, within a time budget), and both files are bounded.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.batch import outputs
from robot_msgs.batch import store as store_module
from robot_msgs.batch.sweep_report import is_sweep_folder, read_sweep
from robot_msgs.cli import main
from robot_msgs.errors import FormatError
from robot_msgs.limits import input_limits
from robot_msgs.report import build_report
from robot_msgs.runs import evaluate, load_runs
from tests.hostile import deep_json, fuzz, mutations

if TYPE_CHECKING:
    from pathlib import Path

EXAMPLE = "example:runs/runs.toml"
SEED = 4471
BUDGET_S = 6.0


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sweep") / "out"
    assert main(["bench", EXAMPLE, "--out", str(out), "--serial", "--quiet"]) == 0
    return out


def _write_reports(folder: Path, data: bytes) -> None:
    """Write ``reports.json``, and its digest into the summary (as bench writes them)."""
    (folder / "reports.json").write_bytes(data)
    summary = json.loads((folder / "summary.json").read_text())
    if isinstance(summary, dict) and "reports_sha256" in summary:
        summary["reports_sha256"] = hashlib.sha256(data).hexdigest()
        (folder / "summary.json").write_text(json.dumps(summary))


def _copy(sweep: Path, target: Path) -> Path:
    target.mkdir()
    for name in ("summary.json", "reports.json"):
        (target / name).write_bytes((sweep / name).read_bytes())
    return target


def test_the_stored_reports_make_the_report_that_evaluating_the_runs_makes(sweep: Path) -> None:
    assert is_sweep_folder(sweep)
    assert not is_sweep_folder(sweep / "runs")
    read = read_sweep(sweep).report
    made = build_report(load_runs([EXAMPLE])).report
    assert read == made
    assert read.notes == ("5 successful run(s) without accuracy are not ranked",)
    ranked = read_sweep(sweep, statistic="max").report.ranking
    assert ranked is not None
    assert ranked.statistic == "max"


def test_runs_without_a_report_are_counted_from_the_summary(sweep: Path, tmp_path: Path) -> None:
    folder = _copy(sweep, tmp_path / "copy")
    summary = json.loads((folder / "summary.json").read_text())
    summary |= {"n_runs": 21, "n_failed": 1, "n_lost": 2, "version": "0.0.1"}
    (folder / "summary.json").write_text(json.dumps(summary))
    said = (
        f"3 of 21 runs of the sweep have no report (1 failed to evaluate, 2 not evaluated; "
        f"{folder / 'summary.json'} names them)"
    )
    # Refused as a manifest whose runs fail to evaluate is, unless partial.
    with pytest.raises(FormatError, match=r"names them\); `partial=True` reports the others$"):
        read_sweep(folder)
    notes = read_sweep(folder, partial=True).report.notes
    assert notes[0] == said
    assert notes[1] == "evaluated by robot_msgs 0.0.1"


@pytest.mark.parametrize("runs", [-1, 5, "18", None])
def test_a_run_count_below_the_reports_or_not_a_count_is_refused(
    sweep: Path, tmp_path: Path, runs: object
) -> None:
    """`n_runs: -1` was read as 0 runs: no run missing, and the folder reported as whole."""
    folder = _copy(sweep, tmp_path / "copy")
    summary = json.loads((folder / "summary.json").read_text())
    summary["n_runs"] = runs
    (folder / "summary.json").write_text(json.dumps(summary))
    with pytest.raises(
        FormatError,
        match=r"summary\.json: `n_runs`: expected a count of at least the 18 run reports of "
        r"reports\.json, got ",
    ):
        read_sweep(folder)


def test_a_run_reported_twice_is_refused(sweep: Path, tmp_path: Path) -> None:
    """An entry of reports.json copied (its digest written again) counted the run twice in
    every table, group and ranking."""
    folder = _copy(sweep, tmp_path / "copy")
    entries = json.loads((folder / "reports.json").read_text())
    entries[5] = entries[2]
    _write_reports(folder, json.dumps(entries).encode())
    with pytest.raises(
        FormatError, match=r"reports\.json: entry 6 \(run .*\): the run of entry 3 again$"
    ):
        read_sweep(folder)


def test_a_sweep_stopped_before_its_outputs_is_refused(sweep: Path, tmp_path: Path) -> None:
    # A sweep stopped early (Ctrl-C, a full disk) writes summary.json without outputs;
    # the reports.json beside it is an earlier sweep's.
    folder = _copy(sweep, tmp_path / "copy")
    summary = json.loads((folder / "summary.json").read_text())
    (folder / "summary.json").write_text(json.dumps(summary | {"outputs_key": None}))
    with pytest.raises(FormatError, match=r"stopped before writing its outputs .*--resume"):
        read_sweep(folder)


@pytest.mark.parametrize(
    ("summary", "reports", "said"),
    [
        ("[]", "[]", r"summary\.json: expected the summary robot-msgs bench writes"),
        ('{"settings": {"statistic": "best"}}', "[]", r"summary\.json: settings: .*statistic"),
        (None, '{"runs": []}', r"reports\.json: expected a list of run entries, got a JSON object"),
        (None, "[1]", r"reports\.json: entry 1: expected an object with the run's report"),
        (None, '[{"report": {"_type": "compare/Ranking"}}]', r"reports\.json: entry 1 \(run"),
        (None, "[", r"reports\.json:1:2: expected JSON"),
        (None, deep_json(100_000), r"reports\.json: .*nested"),
    ],
)
def test_broken_files_are_one_error_naming_the_file_and_entry(
    sweep: Path, tmp_path: Path, summary: str | None, reports: str, said: str
) -> None:
    folder = _copy(sweep, tmp_path / "copy")
    if summary is not None:
        (folder / "summary.json").write_text(summary)
    _write_reports(folder, reports.encode())
    with pytest.raises(FormatError, match=said):
        read_sweep(folder)


def test_both_files_are_bounded_by_the_bound_on_the_sweeps_own_files(
    sweep: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bounded by ``own_file_bytes``: a ``max_bytes`` lowered for the inputs is not it."""
    size = (sweep / "reports.json").stat().st_size
    with input_limits(max_bytes=size - 1):
        assert read_sweep(sweep) is not None
    monkeypatch.setattr(store_module, "own_file_bytes", lambda: size - 1)
    with pytest.raises(FormatError, match=r"reports\.json: is"):
        read_sweep(sweep)


def test_mutated_files_raise_only_our_errors(sweep: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(SEED)
    folder = _copy(sweep, tmp_path / "copy")
    seeds = {name: (sweep / name).read_bytes() for name in ("summary.json", "reports.json")}
    names = list(seeds)
    target = [names[0]]

    def mutant() -> bytes:
        target[0] = names[int(rng.integers(len(names)))]
        return mutations(seeds[target[0]], rng)()

    def check(data: bytes) -> None:
        for name, seed in seeds.items():
            (folder / name).write_bytes(data if name == target[0] else seed)
        if target[0] == "reports.json":  # its digest in the summary: the parser is reached
            summary = json.loads(seeds["summary.json"])
            summary["reports_sha256"] = hashlib.sha256(data).hexdigest()
            (folder / "summary.json").write_text(json.dumps(summary))
        read_sweep(folder)

    assert fuzz(check, mutant, cases=200, seconds=BUDGET_S, at_least=30) >= 30


def test_a_sweep_that_stopped_before_its_outputs_is_refused_not_read_from_stale_files(
    sweep: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bench once, then again with --force and other settings, its outputs unwritable (a
    # full disk): summary.json is the second session's (sim3), reports.json the first's.
    folder = _copy(sweep, tmp_path / "copy")

    def full(path: object, **_: object) -> object:
        msg = f"{path}: cannot write it: no space left on the device"
        raise OSError(errno.ENOSPC, msg)

    monkeypatch.setattr(outputs, "open_atomic", full)
    argv = ["bench", EXAMPLE, "--out", str(folder), "--serial", "--quiet", "--force"]
    assert main([*argv, "--align", "sim3"]) != 0
    monkeypatch.undo()
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["settings"]["evaluation"]["align"] == "sim3"  # the new session's
    assert (folder / "reports.json").read_bytes() == (sweep / "reports.json").read_bytes()
    with pytest.raises(FormatError, match=r"stopped before writing its outputs .*--resume"):
        read_sweep(folder)
    (folder / "reports.json").unlink()  # as a first session stopped so leaves it
    assert is_sweep_folder(folder)
    with pytest.raises(FormatError, match=r"stopped before writing its outputs"):
        read_sweep(folder)


def test_a_reports_file_of_another_sweep_is_refused(
    sweep: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other"  # the same runs, another alignment
    assert (
        main(["bench", EXAMPLE, "--out", str(other), "--serial", "--quiet", "--align", "sim3"]) == 0
    )
    capsys.readouterr()
    folder = _copy(sweep, tmp_path / "copy")
    (folder / "reports.json").write_bytes((other / "reports.json").read_bytes())
    with pytest.raises(FormatError, match=r"reports\.json: not the file summary\.json beside"):
        read_sweep(folder)
    # A folder of a release before the digest: refused by its settings and count.
    summary = json.loads((folder / "summary.json").read_text())
    del summary["reports_sha256"]
    (folder / "summary.json").write_text(json.dumps(summary))
    with pytest.raises(
        FormatError, match=r"reports\.json: entry 1 .*other settings than .*summary\.json"
    ):
        read_sweep(folder)
    fewer = json.loads((sweep / "reports.json").read_text())[1:]  # as a sweep of one run less
    (folder / "reports.json").write_text(json.dumps(fewer))
    with pytest.raises(
        FormatError, match=r"reports\.json: 17 run reports where .*summary\.json counts 18"
    ):
        read_sweep(folder)


@pytest.mark.parametrize("name", ["summary.json", "reports.json"])
def test_a_fifo_or_device_in_place_of_a_file_is_one_error_not_a_hang(
    sweep: Path, tmp_path: Path, name: str
) -> None:
    folder = _copy(sweep, tmp_path / "copy")
    (folder / name).unlink()
    os.mkfifo(folder / name)
    assert is_sweep_folder(folder)
    with pytest.raises(FormatError, match=rf"{name}: not a regular file"):
        read_sweep(folder)
    (folder / name).unlink()
    (folder / name).symlink_to("/dev/zero")
    with pytest.raises(FormatError, match=rf"{name}: not a regular file"):
        read_sweep(folder)


def test_a_reports_file_of_a_later_sweep_of_the_same_runs_is_refused(
    sweep: Path, tmp_path: Path
) -> None:
    """A later sweep stopped between reports.json and summary.json, same settings and runs.

    Its reports passed every check (settings per comparison, the count of runs) and were
    reported as the earlier sweep's; the summary names its reports by their SHA-256 now.
    """
    from importlib.resources import files

    runs = tmp_path / "runs"
    shutil.copytree(str(files("robot_msgs") / "examples" / "runs"), runs)
    estimate = runs / "dvo" / "fr1_xyz" / "trial_1" / "estimate.tum"
    lines = estimate.read_text().splitlines()
    estimate.write_text("\n".join(lines[:-40]) + "\n")  # the later run lost its last poses
    later = tmp_path / "later"
    argv = ["bench", str(runs / "runs.toml"), "--out", str(later), "--serial", "--quiet"]
    assert main(argv) == 0
    assert read_sweep(later).report != read_sweep(sweep).report
    mixed = _copy(sweep, tmp_path / "mixed")
    (mixed / "reports.json").write_bytes((later / "reports.json").read_bytes())
    with pytest.raises(FormatError, match=r"reports\.json: not the file summary\.json beside"):
        read_sweep(mixed)
    # A folder of a release before the digest is checked by settings and count alone.
    summary = json.loads((mixed / "summary.json").read_text())
    del summary["reports_sha256"]
    (mixed / "summary.json").write_text(json.dumps(summary))
    assert read_sweep(mixed).report == read_sweep(later).report


def test_a_run_root_with_a_summary_of_its_own_is_reported_as_runs(
    sweep: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A user's summary.json beside runs/<algorithm>/... was taken for a sweep and refused."""
    from importlib.resources import files

    root = tmp_path / "experiment"
    shutil.copytree(str(files("robot_msgs") / "examples" / "runs"), root / "runs")
    (root / "summary.json").write_text('{"notes": "my own"}')
    assert not is_sweep_folder(root)
    assert main(["report", str(root), "--quiet", "--json", str(tmp_path / "r.json")]) == 0
    assert json.loads((tmp_path / "r.json").read_text())["runs"]
    # The sweep's record store is still told apart, with or without its reports.
    copy = tmp_path / "copy"
    shutil.copytree(sweep, copy)
    (copy / "reports.json").unlink()
    assert is_sweep_folder(copy)
    capsys.readouterr()


def test_a_sweep_stopped_before_its_first_summary_is_named_with_what_it_left(
    sweep: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`report OUT` of a sweep killed before it wrote summary.json said "no runs found"
    (OUT was walked as a root of run folders), as if the user had named a wrong folder.

    A killed sweep leaves what its workers stored (``runs/<k[:2]>/<k>.json``, complete:
    written atomically) and its lock naming it; Ctrl-C releases the lock. The error says
    how many records, one run they are of, the lock's owner and how to finish.
    """
    folder = tmp_path / "killed"
    folder.mkdir()
    shutil.copytree(sweep / "runs", folder / "runs")  # what the workers stored
    (folder / ".bench.lock").write_text(
        '{"pid": 4242, "host": "node7", "started": "2026-01-02 10:00:00"}\n'
    )
    assert is_sweep_folder(folder)
    said = (
        rf"{folder}: a bench output folder whose sweep wrote no outputs \(no summary\.json\): "
        rf"it was stopped \(killed\?\) or is still running; 18 run records in {folder}/runs "
        r"\(run \w+/\w+/trial_\d and 17 others\), its lock taken by pid 4242 on node7, "
        rf"since 2026-01-02 10:00:00; `robot-msgs bench \.\.\. --out {folder} --resume` "
        "finishes a stopped one$"
    )
    with pytest.raises(FormatError, match=said):
        read_sweep(folder, partial=True)
    capsys.readouterr()
    assert main(["report", str(folder), "--allow-partial", "--no-progress"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"ERROR: {folder}: a bench output folder whose sweep wrote no")
    (folder / ".bench.lock").unlink()  # interrupted: the records alone
    assert is_sweep_folder(folder)
    with pytest.raises(FormatError, match=r"18 run records in .*\(run .* and 17 others\); `"):
        read_sweep(folder)
    shutil.rmtree(folder / "runs")  # killed before any record: its lock alone
    (folder / "runs").mkdir()
    assert not is_sweep_folder(folder)
    (folder / ".bench.lock").write_text('{"pid": 4242, "host": "node7", "started": "x"}\n')
    assert is_sweep_folder(folder)
    with pytest.raises(FormatError, match=r"\): it was .*; no run record yet, its lock taken"):
        read_sweep(folder)


def test_a_sweep_judged_under_an_older_revision_says_so_once_in_every_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A KITTI run without its times losing frames 10 .. 30, benched at revision 14 (before
    its report recorded frames): `report` of the folder showed that judgement, 'lost [s]
    20.0', as today's without a word. It now says the revision and how to judge again,
    once in the text, the JSON and the HTML."""
    pytest.importorskip("plotly")
    run = tmp_path / "orb"
    run.mkdir()
    for name, dy in (("estimate.txt", 0.1), ("reference.txt", 0.0)):
        rows = (f"1 0 0 {i} 0 1 0 {dy} 0 0 1 0\n" for i in range(41))
        (run / name).write_text("".join(rows))
    (run / "tracking.csv").write_text("time_s,event\n10,lost\n30,recovered\n")
    meta = {"algorithm": "orb", "sequence": "00", "estimate": "estimate.txt"}
    meta |= {"reference": "reference.txt", "estimate_format": "kitti"}
    (run / "meta.json").write_text(json.dumps(meta | {"reference_format": "kitti"}))
    out = tmp_path / "out"
    with monkeypatch.context() as patch:
        patch.setattr(evaluate, "JUDGING_REVISION", 14)
        assert main(["bench", str(run), "--out", str(out), "--serial", "--quiet"]) == 0
    entries = json.loads((out / "reports.json").read_text())
    for entry in entries:  # what revision 14 wrote: no such field
        del entry["report"]["stamps_are_frames"]
    _write_reports(out, json.dumps(entries).encode())
    capsys.readouterr()
    page, said = tmp_path / "report.html", tmp_path / "report.json"
    assert main(["report", str(out), "--json", str(said), "--html", str(page)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "20.0" in text  # the old judgement, shown as it was stored
    note = (
        "the runs were judged under revision 14 of the judging rules, older than today's "
        f"{evaluate.JUDGING_REVISION}: their success, losses and notes are those rules'; run "
        "the same bench command with --resume to judge them again"
    )
    assert text.count(f"NOTE: {note}") == 1
    assert json.loads(said.read_text())["notes"].count(note) == 1
    shown = note.replace("'", "&#x27;").replace("--resume", '<span class="flag">--resume</span>')
    assert page.read_text().count(shown) == 1  # each --flag of a note a span (c809ca2)
    # As the note says: --resume judges them again, by today's rules, and says nothing.
    assert main(["bench", str(run), "--out", str(out), "--serial", "--quiet", "--resume"]) == 0
    now = read_sweep(out).report
    assert not [n for n in now.notes if "revision" in n]
    assert now.runs[0].lost_frames == 20.0  # 30 - 10
