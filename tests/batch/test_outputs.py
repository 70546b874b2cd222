"""Outputs streamed from the records: the manifest's order whatever order runs finished in."""

from __future__ import annotations

import json
import os
import re
import socket
from typing import TYPE_CHECKING

import pytest

from robot_msgs.batch import outputs
from robot_msgs.batch.inputs import settings_identity
from robot_msgs.batch.outputs import DERIVED_FILES, write_outputs
from robot_msgs.batch.plan import SweepState
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.batch.worker import Chunk, Job, RunSummary, evaluate_task, run_chunk
from robot_msgs.compare import RunReport
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import make_tree, scripted
from tests.runs.tree import make_two_versions

if TYPE_CHECKING:
    from pathlib import Path

pytest.importorskip("pyarrow")


def test_runs_finished_in_any_order_give_the_bytes_of_a_serial_sweep(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", trials=3)
    manifest = load_runs([tmp_path / "runs"])
    run_sweep(manifest, tmp_path / "serial", fn=scripted, executor="serial", progress=None)
    shared = settings_identity(manifest.settings.to_dict(), scripted)
    job = Job(settings=manifest.settings, shared=shared, out=str(tmp_path / "out"), session="s")
    state = SweepState(len(manifest.runs))
    for i in reversed(range(len(manifest.runs))):  # the last run first
        chunk = Chunk(number=i, indices=(i,), runs=(manifest.runs[i],), attempts=(1,))
        for summary in run_chunk(scripted, job, chunk).summaries:
            state.finish(summary)
    outputs = write_outputs(
        manifest, state, ResultStore(tmp_path / "out"), tmp_path / "out", shared=shared
    )
    assert outputs.table == tmp_path / "out" / "results.parquet"
    for name in DERIVED_FILES:
        if name != "results.csv":
            serial = (tmp_path / "serial" / name).read_bytes()
            assert (tmp_path / "out" / name).read_bytes() == serial, name
    entries = json.loads((tmp_path / "out" / "reports.json").read_text())
    assert [e["run"] for e in entries] == [run.name for run in manifest.runs]
    assert all(RunReport.from_dict(e["report"]).success for e in entries)


def _stand_in(path: Path, kind: str) -> None:
    """Put a ``kind`` where the file ``path`` was: a FIFO, a link to a device, a socket.

    A socket is bound by its name in the current folder (a socket's path is at most 107
    bytes): the caller is in ``path``'s folder.
    """
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)  # opening it to write waits for a reader
    elif kind == "link to /dev/null":
        path.symlink_to("/dev/null")
    else:
        with socket.socket(socket.AF_UNIX) as bound:
            bound.bind(path.name)


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/null", "socket"])
def test_write_outputs_replaces_what_is_a_stream_and_writes_through_a_link_to_a_file(
    tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bench replaced a FIFO, a device or a socket standing at an output's name, but the
    library's write_outputs wrote into them (a FIFO waited for a reader, a link to
    /dev/null swallowed ranking.json) or refused the socket: it follows bench's one rule,
    and like bench writes through a link to a regular file."""
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    manifest = load_runs([tmp_path / "runs"])
    out = tmp_path / "out"
    run_sweep(manifest, out, fn=scripted, executor="serial", progress=None)
    written = [name for name in DERIVED_FILES if (out / name).is_file()]
    assert {"results.parquet", "reports.json", "ranking.json"} <= set(written)
    expected = {name: (out / name).read_bytes() for name in written}
    *streams, linked = written
    monkeypatch.chdir(out)
    for name in streams:
        _stand_in(out / name, kind)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("old")
    (out / linked).unlink()
    (out / linked).symlink_to(elsewhere)
    state = SweepState(len(manifest.runs))
    shared = settings_identity(manifest.settings.to_dict(), scripted)
    job = Job(settings=manifest.settings, shared=shared, out=str(out), session="s")
    for i, run in enumerate(manifest.runs):
        chunk = Chunk(number=i, indices=(i,), runs=(run,), attempts=(1,))
        state.finish(run_chunk(scripted, job, chunk).summaries[0])
    write_outputs(manifest, state, ResultStore(out), out, shared=shared, force=True)
    for name in streams:
        assert (out / name).is_file(), name
        assert not (out / name).is_symlink(), name
        assert (out / name).read_bytes() == expected[name], name
    assert (out / linked).is_symlink()
    assert elsewhere.read_bytes() == expected[linked]


def test_a_run_lost_to_the_infrastructure_has_a_row_and_no_report(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    manifest = load_runs([tmp_path / "runs"])
    shared = settings_identity(manifest.settings.to_dict(), scripted)
    job = Job(settings=manifest.settings, shared=shared, out=str(tmp_path / "out"), session="s")
    state = SweepState(2)
    chunk = Chunk(number=0, indices=(0,), runs=(manifest.runs[0],), attempts=(1,))
    state.finish(run_chunk(scripted, job, chunk).summaries[0])
    state.finish(RunSummary.unfinished(1, "lost", "SchedulerLost", "the scheduler went away"))
    outputs = write_outputs(
        manifest, state, ResultStore(tmp_path / "out"), tmp_path / "out", shared=shared
    )
    from robot_msgs.batch.results_table import read_results

    rows = [r for r in read_results(outputs.table) if r["evaluation"] == "ape:translation"]
    assert [(r["trial"], r["status"], r["error_type"]) for r in rows] == [
        ("1", "ok", ""),
        ("2", "lost", "SchedulerLost"),
    ]
    assert [e["run"] for e in json.loads((tmp_path / "out" / "reports.json").read_text())] == [
        "orb/MH_01/1"
    ]
    [(name, ranking)] = outputs.rankings[:1]
    assert ranking is not None
    assert (name, dict(ranking.left_out)) == ("ape:translation", {"SchedulerLost": 1})


def test_a_configuration_whose_every_run_was_lost_leaves_the_others_named_alike(
    tmp_path: Path,
) -> None:
    """Every run of orb 1.0 lost to the infrastructure: ranking.json named orb 2.0 "orb"
    (from the runs it ranked) and aggregates.json "orb 2.0" (from every run, the lost ones
    too). Both name the configurations of the runs they hold, as ``report`` of the folder
    names those of its reports."""
    root = make_two_versions(tmp_path / "runs")
    manifest = load_runs([root])
    shared = settings_identity(manifest.settings.to_dict(), evaluate_task)
    job = Job(settings=manifest.settings, shared=shared, out=str(tmp_path / "out"), session="s")
    state = SweepState(len(manifest.runs))
    for i, run in enumerate(manifest.runs):
        if run.meta.version == "1.0":
            state.finish(
                RunSummary.unfinished(i, "lost", "SchedulerLost", "the scheduler went away")
            )
        else:
            chunk = Chunk(number=i, indices=(i,), runs=(run,), attempts=(1,))
            state.finish(run_chunk(evaluate_task, job, chunk).summaries[0])
    outputs = write_outputs(
        manifest, state, ResultStore(tmp_path / "out"), tmp_path / "out", shared=shared
    )
    ranked = [
        (name, row.name, row.n_runs) for name, ranking in outputs.rankings if ranking
        for row in ranking.rows
    ]  # fmt: skip
    assert ranked == [("ape:translation", "orb", 3), ("rpe:translation:1s:all", "orb", 3)]
    aggregates = json.loads((tmp_path / "out" / "aggregates.json").read_text())
    named = [a["group"].get("configuration", a["group"]["algorithm"]) for a in aggregates]
    assert named == ["orb"] * 4  # two metrics on two sequences


def test_a_writer_used_outside_its_with_block_says_so(tmp_path: Path) -> None:
    # The merge of a done block checked this with an assert, gone under `python -O`.
    from robot_msgs.batch.blocks import BlockResult
    from robot_msgs.batch.executors import ChunkDone
    from robot_msgs.batch.outputs import OutputsWriter

    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    manifest = load_runs([tmp_path / "runs"])
    shared = settings_identity(manifest.settings.to_dict(), scripted)
    writer = OutputsWriter(
        manifest, SweepState(1), ResultStore(tmp_path / "out"), tmp_path / "out", shared=shared
    )
    done = BlockResult(
        number=0, rows=0, reports=0, key="", aggregates={}, has_metric=set(), left_out={},
        rankings={},
    )  # fmt: skip
    entered = re.escape("OutputsWriter needs to be entered: `with OutputsWriter(...) as writer:`")
    with pytest.raises(RuntimeError, match=entered):
        writer.take(ChunkDone(done))
    with pytest.raises(RuntimeError, match=entered):
        writer.next_chunk()
    with pytest.raises(RuntimeError, match=entered):
        writer.finish()


def test_the_outputs_key_names_how_the_outputs_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """The key held the package's version alone: a sweep resumed after runs began to be
    grouped by configuration kept its pooled ranking.json (a review)."""

    def key() -> str:
        made = outputs.OutputsKey("settings")
        made.add("k1", "d1", "s1")
        return made.hexdigest()

    now = key()
    monkeypatch.setattr(outputs, "OUTPUTS_FORMAT", outputs.OUTPUTS_FORMAT - 1)
    assert key() != now


def _current_outputs(out: Path) -> None:
    """Lay out the derived files of a sweep, and a summary.json naming records 'k'."""
    for name in DERIVED_FILES:
        if not name.startswith("results."):
            (out / name).write_text("[]")
    (out / "results.parquet").write_bytes(b"")
    (out / "summary.json").write_text(json.dumps({"outputs_key": "k", "table": "results.parquet"}))


@pytest.mark.parametrize("summary", ["deep", "fifo", "link to /dev/zero"])
def test_a_summary_that_is_not_one_leaves_the_outputs_to_be_written_again(
    tmp_path: Path, summary: str
) -> None:
    """bench --resume read summary.json with read_text and json.loads: 10^4 nested
    brackets ended as 'a bug in robot_msgs' (RecursionError), a FIFO waited for a writer,
    a link to /dev/zero ran out of memory."""
    _current_outputs(tmp_path)
    assert outputs.outputs_current(tmp_path, "k") == tmp_path / "results.parquet"
    path = tmp_path / "summary.json"
    path.unlink()
    if summary == "deep":
        path.write_text("[" * 10_000 + "]" * 10_000)
    elif summary == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    assert outputs.outputs_current(tmp_path, "k") is None
    assert outputs.read_summary(tmp_path) is None
