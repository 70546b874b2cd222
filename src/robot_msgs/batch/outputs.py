"""A sweep's derived files, merged from blocks of runs in the manifest's order.

Written once every run has ended::

    results.parquet       one row per run, metric and signal (results.csv without pyarrow)
    reports.json          every evaluated run's RunReport (success, losses, comparisons...)
    aggregates.json       one Aggregate per (metric, configuration, sequence)
    ranking.json          per metric, the configurations ranked across sequences
    repeatability.json    per (configuration, sequence) without a reference, how trials agree

A configuration is an algorithm with its version and parameters
(:class:`~robot_msgs.compare.Configuration`): two versions of one algorithm, or a
parameter sweep, are never pooled into one aggregate or ranking line.

WHY in blocks: the client held every result of a sweep (about 14 KB a run, 14 GB at
10^6 runs) to write these files, and then read every record itself (0.40 ms a run,
most of it rebuilding reports, while the cluster idled). Now workers read the records,
:data:`~robot_msgs.batch.blocks.BLOCK_RUNS` runs at a time
(:func:`~robot_msgs.batch.blocks.write_block`), and :class:`OutputsWriter` feeds those
blocks to the executor and merges what comes back in the manifest's order: it copies
the blocks' table rows (one Parquet row group at a time) and report entries, and merges
their tallies (:meth:`~robot_msgs.compare.AggregateTally.merge`,
:meth:`~robot_msgs.runs.RankingTally.merge`). Its memory is one row group and a few
floats a run. The tables follow the manifest's order whatever order the runs or the
blocks finished in, so every executor writes the same bytes; a block its worker could
not write is written by the client.

Runs that failed to evaluate or were lost to the infrastructure have a table row saying
so, and are left out of the aggregates and rankings (each says how many it lacks and
why), never counted as their configuration's failures: ``report`` of the runs or of
this folder leaves them out alike.

The files are a function of the records they were streamed from, which
:class:`OutputsKey` names (each run's key, content digest and session, the settings and
the package version); ``summary.json`` keeps it, so a ``--resume`` that finds every
record as it was rewrites nothing (:func:`outputs_current`).
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
import stat
import uuid
from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs._version import __version__
from robot_msgs.batch.blocks import (
    BLOCK_RUNS,
    REPORTS_PART,
    TABLE_PART,
    BlockResult,
    OutputBlock,
    part_path,
    record_line,
    write_block,
)
from robot_msgs.batch.executors import ChunkDone, ChunkLost, Stopped, Waiting
from robot_msgs.batch.inputs import run_key
from robot_msgs.batch.results_table import TableWriter
from robot_msgs.batch.store import own_file_bytes
from robot_msgs.batch.tasks import INFRASTRUCTURE
from robot_msgs.compare.configuration import configuration_labels
from robot_msgs.files import open_atomic, write_atomic
from robot_msgs.report.text import counted
from robot_msgs.runs.rank import RankingTally
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from types import TracebackType

    from typing_extensions import Self

    from robot_msgs.batch.executors import Outcome
    from robot_msgs.batch.plan import SweepState
    from robot_msgs.batch.store import ResultStore
    from robot_msgs.compare import Aggregate, Configuration, Ranking, Repeatability, RunReport
    from robot_msgs.compare.aggregation import AggregateTally
    from robot_msgs.runs.manifest import Manifest
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "DERIVED_FILES",
    "OUTPUTS_FORMAT",
    "PARTS_PREFIX",
    "OutputsKey",
    "OutputsWriter",
    "SweepOutputs",
    "outputs_current",
    "read_summary",
    "sweep_parts",
    "unlink_streams",
    "write_outputs",
]

#: The files written from the records (``results.csv`` replaces the Parquet without pyarrow).
DERIVED_FILES = (
    "results.parquet",
    "results.csv",
    "reports.json",
    "aggregates.json",
    "ranking.json",
    "repeatability.json",
)
#: The hidden folder of one session's block parts, under the output folder.
PARTS_PREFIX = ".parts-"


#: How the derived files are made from the records; bumped when that changes within a
#: release, so ``--resume`` rewrites them. WHY: the key held the package's version
#: alone, which did not change when runs began to be grouped by configuration, and a
#: sweep resumed after that kept its pooled ``ranking.json`` and ``aggregates.json``
#: while ``report`` of the same folder split them (a review). 2: configurations; 3: runs
#: that failed to evaluate left out of the rankings and aggregates, and runs without a
#: reference judged against the span their sequence's runs show.
OUTPUTS_FORMAT = 3


class OutputsKey:
    """Name what the derived files are made of: every run's record, in the manifest's order.

    The runs are hashed in blocks of :data:`~robot_msgs.batch.blocks.BLOCK_RUNS`, the
    blocks' digests in order, so a block's worker can hash its own runs
    (:meth:`add_block`) and the name is the same as run by run.

    Examples
    --------
    >>> a, b = OutputsKey("settings"), OutputsKey("settings")
    >>> a.add("k1", "d1", "s1"); b.add("k1", "d1", "s2")
    >>> a.hexdigest() == b.hexdigest()  # another session: maybe other timings, recomputed
    False
    """

    def __init__(self, shared: str) -> None:
        self._hash = hashlib.sha256(f"{__version__}/{OUTPUTS_FORMAT}\n{shared}\n".encode())
        self._block = hashlib.sha256()
        self._in_block = 0

    def add(self, key: str, digest: str, session: str) -> None:
        """Add the next run's record."""
        self._add(record_line(key, digest, session))

    def _add(self, line: bytes) -> None:
        self._block.update(line)
        self._in_block += 1
        if self._in_block == BLOCK_RUNS:
            self.add_block(self._block.hexdigest())

    def add_block(self, digest: str) -> None:
        """Add the next block's digest (the SHA-256 of its runs' lines)."""
        self._hash.update(f"{digest}\n".encode())
        self._block = hashlib.sha256()
        self._in_block = 0

    def hexdigest(self) -> str:
        """Return the name (64 hex digits)."""
        whole = self._hash.copy()
        if self._in_block:
            whole.update(f"{self._block.hexdigest()}\n".encode())
        return whole.hexdigest()


def outputs_current(folder: str | Path, key: str) -> Path | None:
    """Return the table when every derived file was written from the records ``key`` names.

    ``None`` when a file is missing or ``summary.json`` names other records.
    """
    out = Path(folder)
    summary = read_summary(out)
    if summary is None or summary.get("outputs_key") != key:
        return None
    table = out / Path(str(summary.get("table", ""))).name
    others = [name for name in DERIVED_FILES if not name.startswith("results.")]
    if table.name not in ("results.parquet", "results.csv") or not table.is_file():
        return None
    return table if all((out / name).is_file() for name in others) else None


def read_summary(folder: str | Path) -> dict[str, Any] | None:
    """Return the ``summary.json`` a sweep wrote in ``folder``; ``None`` when it is not one.

    Not one: missing, not a regular file, larger than
    :func:`~robot_msgs.batch.store.own_file_bytes` (the sweep's own file: the user's
    ``--max-bytes`` bounds their inputs, not it), not JSON (or nested deeper than
    ``max_depth``), not an object. WHY: it was read with ``read_text`` and
    ``json.loads``, so on ``--resume`` a FIFO there waited for a writer, a link to
    ``/dev/zero`` ran out of memory and 10^4 nested brackets ended as a
    ``RecursionError``; such a summary names no outputs, which are written again.
    """
    from robot_msgs.documents import parse_json  # noqa: PLC0415
    from robot_msgs.errors import RobotMsgsError  # noqa: PLC0415
    from robot_msgs.io.bounded import read_input  # noqa: PLC0415

    path = Path(folder) / "summary.json"
    try:
        if not path.is_file():  # a FIFO would block the open until a writer came
            return None
        summary = parse_json(read_input(path, limit=own_file_bytes()), source=str(path))
    except (RobotMsgsError, OSError):
        return None
    return summary if isinstance(summary, dict) else None


def unlink_streams(folder: str | Path, names: Iterable[str]) -> None:
    """Remove each of ``folder``'s ``names`` that is, or links to, a FIFO, a device or a socket.

    WHY: a sweep's output folder holds its own files, not outputs the user named, and
    :func:`~robot_msgs.files.write_atomic` writes into a stream: a FIFO there hung
    ``--resume`` at its write, a link to ``/dev/zero`` was written into the device (a
    review). What is a stream is removed, to be written again as a file. A link to a
    regular file is left, to be written through; a folder is left to ``write_atomic`` to
    refuse. The one rule of the sweep's files (:func:`write_outputs` and ``summary.json``;
    a record, never a link, has its own in :mod:`robot_msgs.batch.store`).
    """
    for name in names:
        path = Path(folder) / name
        try:
            mode = path.stat().st_mode
        except OSError:
            continue  # nothing there, a broken link, a loop: write_atomic says what it does
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def sweep_parts(folder: str | Path) -> list[Path]:
    """Remove the part folders a killed sweep left in ``folder``; return them.

    Only for the holder of the folder's lock (:class:`~robot_msgs.batch.lock.FolderLock`):
    no other sweep can be writing parts there.
    """
    found = sorted(p for p in Path(folder).glob(f"{PARTS_PREFIX}*") if p.is_dir())
    for path in found:
        shutil.rmtree(path, ignore_errors=True)
    return found


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepOutputs:
    """What :func:`write_outputs` wrote: the table, the rankings, notes, what they are made of."""

    table: Path
    rankings: tuple[tuple[str, Ranking | None], ...]
    repeatability: tuple[Repeatability, ...]
    notes: tuple[str, ...]
    key: str
    reports_sha256: str


class _Hashed:
    """A binary file written through, keeping the SHA-256 of every byte written.

    WHY: ``summary.json`` names the ``reports.json`` it was written with by this digest,
    so ``report DIR`` can tell that file from one a later, interrupted sweep left.
    """

    def __init__(self, file: Any) -> None:
        self.file = file
        self.sha256 = hashlib.sha256()

    def write(self, data: bytes) -> int:
        """Write ``data`` and add it to the digest."""
        self.sha256.update(data)
        written: int = self.file.write(data)
        return written


def _without_reference(
    manifest: Manifest, state: SweepState, store: ResultStore, shared: str
) -> tuple[dict[str, RunReport], dict[str, Repeatability], list[str]]:
    """Judge again the runs without a reference; the repeatability of their groups; notes.

    Each sequence with an evaluated run without a comparison, and another run, is read
    from its records: a run without a reference whose sequence's runs show a wider span
    than its own is evaluated again against it (:mod:`robot_msgs.runs.spans`, as
    ``report`` does; its inputs read here), and ``state`` takes its success; then the
    repeatability of its groups without a reference (their estimates read here). Returns
    the reports judged again and the repeatability, by run name, and notes.

    WHY in the client: both compare a sequence's runs with each other, so they need all
    of them at once; it is the few sequences without ground truth, one at a time.
    """
    from robot_msgs.errors import RobotMsgsError  # noqa: PLC0415
    from robot_msgs.runs.evaluate import evaluate_run  # noqa: PLC0415
    from robot_msgs.runs.load import load_run  # noqa: PLC0415 - only sweeps that need it
    from robot_msgs.runs.repeats import group_repeatability  # noqa: PLC0415
    from robot_msgs.runs.spans import (  # noqa: PLC0415
        sequence_spans,
        shown_by_runs_note,
        unmeasured_in_space,
        unmeasured_in_space_note,
    )

    # A first pass keeps the sequences wanted, a second their evaluated runs: no list of
    # every run.
    runs, settings = manifest.runs, manifest.settings
    evaluated = state.success >= 0
    # Matched in space no run is judged on its reference's span (robot_msgs.runs.evaluate):
    # each is judged as one without a reference, against its sequence's runs, as report
    # judges it (a trial cut halfway failed 'estimate ends early' there, succeeded here).
    in_space = settings.evaluation.sync == "spatial"
    unspanned = evaluated if in_space else ~state.has_reference
    wanted = {runs[i].sequence for i in np.flatnonzero(evaluated & unspanned)}
    sequences: dict[str, list[int]] = {}
    for i in map(int, np.flatnonzero(evaluated)):
        if runs[i].sequence in wanted:
            sequences.setdefault(runs[i].sequence, []).append(i)
    judged: dict[str, RunReport] = {}
    out: dict[str, Repeatability] = {}
    notes: list[str] = []
    unmeasured = 0  # in space: runs alone in their sequence too (unmeasured_in_space)
    for members in sequences.values():
        if len(members) < 2 and not in_space:
            continue
        reports: dict[str, RunReport] = {}
        for i in members:
            record = store.load(run_key(shared, runs[i]))
            if record is not None:
                reports[runs[i].name] = record.result.run_report()
        at = {runs[i].name: i for i in members}
        estimates: dict[str, PoseTrajectory | None] = {}
        for name, span in sequence_spans(reports.values()).items():
            try:
                run = load_run(runs[at[name]], reading=settings.reading)
                again = evaluate_run(run, settings, sequence_span=span)
            except (RobotMsgsError, OSError) as err:  # its files changed since its record
                notes.append(f"{name} judged against its own span, not its sequence's: {err}")
                continue
            state.judged_again(at[name], reports[name].failure, again.report.failure)
            reports[name] = judged[name] = again.report
            estimates[name] = again.estimate
        # Grouped as group_repeatability groups them: by configuration (the version and
        # parameters each run declared); estimates read for the groups it compares.
        referenced = {r.configuration for r in reports.values() if r.has_reference}
        succeeded = Counter(r.configuration for r in reports.values() if r.success)
        for name, report in reports.items():
            group = report.configuration
            apart = group in referenced or succeeded[group] < 2  # not compared
            if name in estimates or not report.success or apart:
                continue
            try:
                estimates[name] = load_run(runs[at[name]], reading=settings.reading).estimate
            except (RobotMsgsError, OSError) as err:
                notes.append(f"repeatability of {name} left out: {err}")
        found, left_out = group_repeatability(
            list(reports.values()), estimates, settings.evaluation
        )
        out.update(found)
        notes.extend(left_out)
        if in_space:
            unmeasured += sum(map(unmeasured_in_space, reports.values()))
    if judged:
        notes.append(shown_by_runs_note(len(judged), in_space=in_space))
    if unmeasured:
        notes.append(unmeasured_in_space_note(unmeasured))
    return judged, out, notes


class OutputsWriter:
    """Write a sweep's derived files from blocks of its runs: a feed of blocks for an executor.

    Entering judges again the runs without a reference against the span their
    sequence's runs show, and computes the repeatability of the groups without a
    reference (the client reads their inputs: it compares a sequence's runs with each
    other; :func:`_without_reference`), and opens the table and ``reports.json``. An
    executor then takes blocks (:meth:`next_chunk`, as from a
    :class:`~robot_msgs.batch.plan.ChunkPlan`) and its outcomes go to :meth:`take`,
    which merges every block whose predecessors are merged; a block lost
    more than ``retries`` times, or never handed out, is written here by :meth:`finish`,
    which also writes the small files and returns what was written. Leaving the block
    with an error (an interrupt, a full disk) leaves every output as it was, and no part.

    Parameters
    ----------
    manifest, state, store, folder, shared, named, force
        As for :func:`write_outputs`.
    retries : int
        Times a block whose worker was lost goes out again before the client writes it.
    """

    def __init__(
        self,
        manifest: Manifest,
        state: SweepState,
        store: ResultStore,
        folder: str | Path,
        *,
        shared: str,
        named: str | None = None,
        force: bool = False,
        retries: int = 2,
    ) -> None:
        self.manifest = manifest
        self.state = state
        self.store = store
        self.out = Path(folder)
        self.shared = shared
        self.force = force
        self.retries = retries
        n = len(manifest.runs)
        #: How many blocks the runs make.
        self.blocks = -(-n // BLOCK_RUNS)
        self.parts = self.out / f"{PARTS_PREFIX}{uuid.uuid4().hex}"
        self._stack = contextlib.ExitStack()
        self._queue: deque[int] = deque(range(self.blocks))
        self._inflight: set[int] = set()
        self._lost: dict[int, int] = {}
        self._done: dict[int, BlockResult] = {}
        self._next = 0
        #: Blocks written by the executor's workers, and by this process.
        self.by_workers = 0
        self.by_client = 0
        settings = manifest.settings
        self._names = [m.name for m in settings.metrics]
        self._aggregates: dict[tuple[str, Configuration, str], AggregateTally] = {}
        self._has_metric: set[tuple[str, Configuration, str]] = set()
        self._left_out: dict[tuple[Configuration, str], dict[str, int]] = {}
        self._rankings = {
            name: RankingTally(
                metric=name, statistic=settings.statistic, failures=settings.rank_failures
            )
            for name in self._names
        }
        self._key = OutputsKey(shared if named is None else named)
        self._first_report = True
        self._repeats: dict[str, Repeatability] = {}
        self._judged: dict[str, RunReport] = {}
        self._notes: list[str] = []
        self._table: TableWriter | None = None
        self._reports: Any = None

    def __enter__(self) -> Self:
        unlink_streams(self.out, DERIVED_FILES)
        self._judged, self._repeats, self._notes = _without_reference(
            self.manifest, self.state, self.store, self.shared
        )
        with contextlib.ExitStack() as stack:  # on an error, what was opened is closed
            self._table = stack.enter_context(TableWriter(self.out, force=self.force))
            self._reports = _Hashed(
                stack.enter_context(open_atomic(self.out / "reports.json", force=self.force))
            )
            self._reports.write(b"[")
            stack.callback(shutil.rmtree, self.parts, ignore_errors=True)
            self._stack = stack.pop_all()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stack.__exit__(exc_type, exc, tb)

    @property
    def pending(self) -> bool:
        """Never: every block is there from the start."""
        return False

    def _entered(self) -> TableWriter:
        """Return the open table writer; refuse a writer used outside its ``with`` block."""
        if self._table is None:
            msg = "OutputsWriter needs to be entered: `with OutputsWriter(...) as writer:`"
            raise RuntimeError(msg)
        return self._table

    def block(self, number: int) -> OutputBlock:
        """Describe block ``number``: its runs, their statuses, and where its parts go."""
        table = self._entered()
        start = number * BLOCK_RUNS
        runs = self.manifest.runs[start : start + BLOCK_RUNS]
        status = tuple(self.state.status_of(i) for i in range(start, start + len(runs)))
        errors = {
            k: self.state.errors[start + k][1:]
            for k, st in enumerate(status)
            if (st is None or st in INFRASTRUCTURE) and start + k in self.state.errors
        }
        return OutputBlock(
            number=number,
            start=start,
            runs=tuple(runs),
            status=status,
            errors=errors,
            repeats={r.name: self._repeats[r.name] for r in runs if r.name in self._repeats},
            judged={r.name: self._judged[r.name] for r in runs if r.name in self._judged},
            parts=str(self.parts),
            table=table.part_format,
        )

    def next_chunk(self) -> OutputBlock | None:
        """Return the next block to write, or ``None`` when every block is out."""
        if not self._queue:
            return None
        number = self._queue.popleft()
        self._inflight.add(number)
        return self.block(number)

    def take(self, outcome: Outcome) -> None:
        """Take an executor's outcome: merge a written block as soon as its turn comes."""
        if isinstance(outcome, Waiting):
            return
        if isinstance(outcome, ChunkDone):
            result = outcome.result
            if not isinstance(result, BlockResult):
                msg = f"Expected a block of the outputs, got {type(result).__name__}"
                raise TypeError(msg)
            self._inflight.discard(result.number)
            self._done[result.number] = result
            self.by_workers += 1
            while self._next in self._done:
                self._merge(self._done.pop(self._next))
            return
        if isinstance(outcome, ChunkLost):
            self._inflight.discard(outcome.number)
            self._lost[outcome.number] = self._lost.get(outcome.number, 0) + 1
            if self._lost[outcome.number] <= self.retries:
                self._queue.appendleft(outcome.number)
            return
        if isinstance(outcome, Stopped):  # the rest is written by finish()
            self._queue.clear()
            self._inflight.clear()

    def _merge(self, result: BlockResult) -> None:
        table = self._entered()
        suffix = TABLE_PART[table.part_format]
        table.append_part(part_path(self.parts, result.number, suffix), rows=result.rows)
        reports = part_path(self.parts, result.number, REPORTS_PART)
        if result.reports:
            if not self._first_report:
                self._reports.write(b",")
            with reports.open("rb") as part:
                shutil.copyfileobj(part, self._reports)
            self._first_report = False
        for path in (part_path(self.parts, result.number, suffix), reports):
            path.unlink(missing_ok=True)  # the disk space back as it goes
        self._key.add_block(result.key)
        for triple, tally in result.aggregates.items():
            mine = self._aggregates.get(triple)
            if mine is None:
                self._aggregates[triple] = tally
            else:
                mine.merge(tally)
        self._has_metric |= result.has_metric
        for group, reasons in result.left_out.items():
            why = self._left_out.setdefault(group, {})
            for reason, count in reasons.items():
                why[reason] = why.get(reason, 0) + count
        for name, ranking in result.rankings.items():
            self._rankings[name].merge(ranking)
        self._next += 1

    def finish(self) -> SweepOutputs:
        """Write the blocks not written yet, close the table and reports, write the rest.

        Raises
        ------
        SettingsMismatchError
            Comparisons of one metric made with different settings (a per-run function
            that ignores the settings); the table and reports are written, the rest is not.
        ValidationError
            A run the state says was stored has no record.
        """
        table = self._entered()
        settings = self.manifest.settings
        while self._next < self.blocks:
            result = self._done.pop(self._next, None)
            if result is None:
                result = write_block(settings, self.shared, str(self.out), self.block(self._next))
                self.by_client += 1
            self._merge(result)
        self._reports.write(b"]\n")
        self._stack.close()  # the table and reports.json in place, the parts removed
        out, force = self.out, self.force
        labels = configuration_labels(c for _, c, _ in self._aggregates)
        aggregates = [
            _aggregate(
                tally,
                metric.metric,
                self._left_out.get((configuration, sequence), {}),
                labels[configuration],
            )
            for metric in settings.metrics
            for (name, configuration, sequence), tally in self._aggregates.items()
            if name == metric.name and (name, configuration, sequence) in self._has_metric
        ]
        write_atomic(out / "aggregates.json", dumps(list(aggregates)), force=force)
        computed = tuple((name, tally.compute()) for name, tally in self._rankings.items())
        entries = [{"evaluation": name, "ranking": ranking} for name, ranking in computed]
        write_atomic(out / "ranking.json", dumps(entries), force=force)
        unique = tuple({repeat.runs: repeat for repeat in self._repeats.values()}.values())
        write_atomic(out / "repeatability.json", dumps(list(unique)), force=force)
        notes = list(self._notes)
        if table.note:
            notes.insert(0, table.note)
        return SweepOutputs(
            table=table.path,
            rankings=computed,
            repeatability=unique,
            notes=tuple(notes),
            key=self._key.hexdigest(),
            reports_sha256=self._reports.sha256.hexdigest(),
        )


def write_outputs(
    manifest: Manifest,
    state: SweepState,
    store: ResultStore,
    folder: str | Path,
    *,
    shared: str,
    named: str | None = None,
    force: bool = False,
    run: Callable[[OutputsWriter], None] | None = None,
) -> SweepOutputs:
    """Write every derived file from the records: blocks by ``run``, the rest in this process.

    A FIFO, a device or a socket standing at a file's name is replaced by the file
    (:func:`unlink_streams`, as ``bench`` does); a link to a regular file is written through.

    Parameters
    ----------
    manifest : Manifest
        The sweep's runs and settings.
    state : SweepState
        What became of each run (a stored result, or why none).
    store : ResultStore
        Where the records are.
    folder : path-like
        The output folder.
    shared : str
        The :func:`~robot_msgs.batch.inputs.settings_identity` of the sweep's
        :meth:`~robot_msgs.runs.RunSettings.evaluated` settings (finds the records).
    named : str, optional
        That of the settings whole, ranking rules included: names the files
        (:class:`OutputsKey`). Default ``shared``.
    force : bool
        Replace the files of an earlier sweep.
    run : callable, optional
        Given the :class:`OutputsWriter`, has its blocks written (by an executor); without
        it every block is written in this process.

    Raises
    ------
    SettingsMismatchError
        Comparisons of one metric made with different settings (a per-run function that
        ignores the settings); the table and reports are written, the rest is not.
    ValidationError
        A run the state says was stored has no record.
    """
    with OutputsWriter(
        manifest, state, store, folder, shared=shared, named=named, force=force
    ) as writer:
        if run is not None:
            run(writer)
        return writer.finish()


def _aggregate(
    tally: AggregateTally, metric: str, left_out: dict[str, int], label: str
) -> Aggregate:
    """Return the aggregate, named by its metric even with no success, saying what it lacks.

    ``label`` names its configuration (``orb 2.0``); the group says it when it is not the
    algorithm alone, as :func:`~robot_msgs.report.summarise_groups` does.
    """
    agg = tally.compute()
    if label != agg.group.get("algorithm"):
        agg = agg.replace(group={**agg.group, "configuration": label})
    if agg.n_succeeded == 0:
        agg = agg.replace(metric=metric)
    if left_out:
        reasons = ", ".join(f"{why} {n}" for why, n in left_out.items())
        n = sum(left_out.values())
        runs = counted(
            n, "run that failed to evaluate or was", "runs that failed to evaluate or were"
        )
        said = f"{runs} not evaluated ({reasons}) left out"
        agg = agg.replace(notes=(*agg.notes, said))
    return agg
