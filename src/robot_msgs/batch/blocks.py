"""A sweep's derived files in blocks of runs, each block written by a worker.

WHY: writing the outputs after the last result was the client's alone and serial: 0.40
ms a run for tiny runs, 0.65-1 ms for runs of 10^4 poses (7-15 min at 10^6 runs, the
cluster idle meanwhile), nearly half of it rebuilding each record's report from its
JSON. Now the runs are cut into blocks of :data:`BLOCK_RUNS` consecutive runs of the
manifest, and each block is one more task for the executor's workers
(:func:`write_block`, shipped as the sweep's chunks are, through
:func:`~robot_msgs.batch.worker.run_chunk`): the worker reads the block's records and
writes its table rows (an Arrow IPC stream, or CSV lines without pyarrow) and its
``reports.json`` entries into a part folder, and returns the block's tallies for the
aggregates and rankings (:class:`~robot_msgs.compare.AggregateTally`,
:class:`~robot_msgs.runs.RankingTally`, a few floats a run) and the digest of the
records it read. The client merges the blocks in the manifest's order
(:mod:`robot_msgs.batch.outputs`): it copies bytes and merges tallies, and never parses
a record. Blocks are cut by position only, so every executor writes the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.batch.inputs import run_key
from robot_msgs.batch.results_table import write_rows_part
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.tasks import INFRASTRUCTURE, RunResult, Task
from robot_msgs.compare.aggregation import AggregateTally
from robot_msgs.errors import ValidationError
from robot_msgs.msg.json import json_form
from robot_msgs.runs.rank import RankingTally

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from robot_msgs.batch.tasks import Status
    from robot_msgs.compare import Configuration, Repeatability, RunReport
    from robot_msgs.runs.run_settings import RunSettings
    from robot_msgs.runs.spec import RunSpec

__all__ = [
    "BLOCK_RUNS",
    "REPORTS_PART",
    "TABLE_PART",
    "BlockResult",
    "OutputBlock",
    "part_path",
    "record_line",
    "unfinished_line",
    "write_block",
]

#: Runs in one block of the derived files (the last block holds the rest). Fixed, so that
#: the blocks, and :class:`~robot_msgs.batch.outputs.OutputsKey`, are the same for every
#: executor and every resume: a block of tiny runs is about 0.4 s of a worker's time.
BLOCK_RUNS = 1024
#: Extensions of a block's part files: the table's rows and the reports' entries.
TABLE_PART = {"arrow": ".arrow", "csv": ".csv"}
REPORTS_PART = ".json"


def record_line(key: str, digest: str, session: str) -> bytes:
    """Return what the outputs' key takes of a run with a record: key, digest, session."""
    return f"{key} {digest} {session}\n".encode()


def unfinished_line(position: int, status: str) -> bytes:
    """Return what the outputs' key takes of a run without a record: position, status."""
    return f"{position} {status}\n".encode()


@dataclass(frozen=True, slots=True, kw_only=True)
class OutputBlock:
    """Runs ``start .. start + len(runs)`` of the manifest, to be written as one block.

    ``status`` is each run's status (``None``: never finished), ``errors`` the error
    type and error of each run without a record, by its position in the block;
    ``repeats`` the repeatability of the block's runs that have one, by run name;
    ``judged`` the reports of the block's runs judged again against the span their
    sequence's runs show (:mod:`robot_msgs.runs.spans`), by run name, which replace their
    records' reports; ``parts`` the folder the part files go to; ``table`` the table's
    part format (``arrow`` or ``csv``, as the client writes the table).
    """

    number: int
    start: int
    runs: tuple[RunSpec, ...]
    status: tuple[Status | None, ...]
    errors: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    repeats: Mapping[str, Repeatability] = field(default_factory=dict)
    judged: Mapping[str, RunReport] = field(default_factory=dict)
    parts: str
    table: str = "arrow"

    @property
    def name(self) -> str:
        """How a scheduler names its task (``outputs-3``)."""
        return f"outputs-{self.number}"

    def __len__(self) -> int:
        return len(self.runs)

    def part(self, suffix: str) -> Path:
        """Return the path of one of the block's part files."""
        return part_path(self.parts, self.number, suffix)


def part_path(parts: str | Path, number: int, suffix: str) -> Path:
    """Return where block ``number`` writes its part ``suffix`` (table or reports)."""
    return Path(parts) / f"{number:08d}{suffix}"


@dataclass(slots=True, kw_only=True)
class BlockResult:
    """What a block's worker wrote and tallied; the parts are files under the block's folder.

    ``aggregates`` holds one tally per (metric, configuration, sequence) in the order the
    block's runs first showed them (:class:`~robot_msgs.compare.Configuration`: runs of
    another version or parameters of an algorithm are tallied apart); ``has_metric`` the
    triples with a comparison; ``left_out`` per (configuration, sequence) the runs not
    evaluated by reason;
    ``rankings`` one tally per metric; ``key`` the SHA-256 of the block's
    :func:`record_line` and :func:`unfinished_line`; ``reports`` the entries written.
    """

    number: int
    rows: int
    reports: int
    key: str
    aggregates: dict[tuple[str, Configuration, str], AggregateTally]
    has_metric: set[tuple[str, Configuration, str]]
    left_out: dict[tuple[Configuration, str], dict[str, int]]
    rankings: dict[str, RankingTally]
    elapsed_s: float = 0.0
    worker: str = ""


def _results(
    block: OutputBlock, settings: RunSettings, shared: str, store: ResultStore, key: Any
) -> Iterator[tuple[RunSpec, RunResult, dict[str, Any] | None]]:
    """Each run and its result, in order: its record, or why it has none (its stored report)."""
    for k, (spec, ended) in enumerate(zip(block.runs, block.status, strict=True)):
        position = block.start + k
        if ended is None or ended in INFRASTRUCTURE:
            error_type, error = block.errors.get(k, ("NotRun", "never run"))
            task = Task(run=spec, settings=settings, digest="")
            status: Status = "lost" if ended is None else ended
            key.update(unfinished_line(position, status))
            yield spec, RunResult.failure(task, status, error_type, error), None
            continue
        run = run_key(shared, spec)
        found = store.load_with_json(run)
        if found is None:
            msg = f"no record of {spec.name} in {store.path_for(run)}"
            raise ValidationError(msg)
        record, data = found
        key.update(record_line(run, record.result.digest, record.session))
        again = block.judged.get(spec.name)
        if again is None:
            yield spec, record.result, data["result"]["report"]
        else:  # its stored JSON is not its report now
            yield spec, replace(record.result, report=again), None


def _run_report(result: RunResult, spec: RunSpec) -> RunReport:
    """Return the run's report; one without a record states the version and parameters declared.

    WHY: a run that could not be evaluated has no report of its own, and would otherwise
    count for a configuration of its algorithm that no run had (no version, no parameters).
    """
    if result.report is not None:
        return result.report
    meta = spec.meta
    return result.run_report().replace(version=meta.version, parameters=meta.parameters)


def write_block(settings: RunSettings, shared: str, out: str, block: OutputBlock) -> BlockResult:
    """Read the block's records; write its table rows and reports; return its tallies.

    Parameters
    ----------
    settings : RunSettings
        The sweep's settings (its metrics name the table's rows and the tallies).
    shared : str
        The sweep's :func:`~robot_msgs.batch.inputs.settings_identity` (finds the records).
    out : str
        The sweep's output folder (the records).
    block : OutputBlock
        Which runs, and where the parts go.

    Raises
    ------
    ValidationError
        A run the block says was stored has no record.
    OSError
        A part cannot be written (a full disk).
    """
    started = time.perf_counter()
    store = ResultStore(out)
    names = [m.name for m in settings.metrics]
    aggregates: dict[tuple[str, Configuration, str], AggregateTally] = {}
    has_metric: set[tuple[str, Configuration, str]] = set()
    left_out: dict[tuple[Configuration, str], dict[str, int]] = {}
    rankings = {
        name: RankingTally(
            metric=name, statistic=settings.statistic, failures=settings.rank_failures
        )
        for name in names
    }
    key = hashlib.sha256()
    rows: list[dict[str, Any]] = []
    entries: list[bytes] = []
    from robot_msgs.batch.results_table import rows_of  # noqa: PLC0415 - beside its user

    for spec, result, stored in _results(block, settings, shared, store, key):
        report = _run_report(result, spec)
        rows += rows_of(result, names, report)
        group = (report.configuration, result.sequence)
        # A run with no report (it failed to evaluate, or was not evaluated) counts for no
        # configuration, as ``report --allow-partial`` of these runs or of this folder
        # leaves it out: the README ranks the runs evaluated, their own failures included.
        if result.report is None:
            why = left_out.setdefault(group, {})
            why[result.error_type] = why.get(result.error_type, 0) + 1
            for ranking in rankings.values():
                ranking.leave_out(result.error_type)
            continue
        for ranking in rankings.values():
            ranking.update(report)
        # Only the runs the rankings take open a group: the configurations named are theirs
        # (a configuration with no report renamed the others' aggregates alone).
        for metric in settings.metrics:
            triple = (metric.name, *group)
            if triple not in aggregates:
                aggregates[triple] = AggregateTally(
                    statistic=settings.statistic,
                    group={
                        "evaluation": metric.name,
                        "algorithm": result.algorithm,
                        "sequence": result.sequence,
                    },
                )
            comparison = report.comparisons.get(metric.name)
            if comparison is not None:
                has_metric.add(triple)
            if not report.success:  # a failed run's reason
                aggregates[triple].fail(report.failure)
            elif comparison is not None:
                aggregates[triple].update(comparison)
        repeat = block.repeats.get(result.name)
        # The stored JSON form is the report's json_form (strict JSON already); a
        # report changed here is written in that form too (to_dict() wrote a NaN
        # parameter null, read back None).
        shown = result.report if repeat is None else result.report.replace(repeatability=repeat)
        form = stored if repeat is None and stored is not None else json_form(shown)
        entry = {"run": result.name, "status": result.status, "report": form}
        text = json.dumps(entry, separators=(",", ":"), allow_nan=False)
        entries.append(text.encode())
    Path(block.parts).mkdir(parents=True, exist_ok=True)
    write_rows_part(rows, block.part(TABLE_PART[block.table]), arrow=block.table == "arrow")
    block.part(REPORTS_PART).write_bytes(b",".join(entries))
    return BlockResult(
        number=block.number,
        rows=len(rows),
        reports=len(entries),
        key=key.hexdigest(),
        aggregates=aggregates,
        has_metric=has_metric,
        left_out=left_out,
        rankings=rankings,
        elapsed_s=time.perf_counter() - started,
        worker=f"{socket.gethostname()}:{os.getpid()}",
    )
