"""A sweep end to end: check what is stored, run the rest in chunks, stream the outputs.

Outputs under ``OUT``::

    runs/<k[:2]>/<k>.json one record per run, written by the workers (robot_msgs.batch.store)
    results.parquet       one row per run, metric and signal (results.csv without pyarrow)
    reports.json          every evaluated run's RunReport (success, losses, comparisons...)
    aggregates.json       one Aggregate per (metric, algorithm, sequence)
    ranking.json          per metric, the algorithms ranked across sequences
    repeatability.json    per (algorithm, sequence) without a reference, how trials agree
    summary.json          counts, every run that did not finish, executor, settings, timing

A folder that already holds results is refused unless ``resume`` (keep the stored
results whose inputs are unchanged, compute the rest, rewrite the derived files) or
``force`` (recompute everything); a folder another sweep is writing is refused at once
(:mod:`robot_msgs.batch.lock`).

What the client does, and what it does not: it checks stored records by their inputs'
stamps (:mod:`robot_msgs.batch.inputs`; ``verify`` sends every run to the workers to be
re-hashed instead), hands chunks to the executor (:mod:`robot_msgs.batch.plan`) and
keeps a few bytes per run from their summaries. The workers hash, evaluate and store,
then write the derived files in blocks, which the client merges
(:mod:`robot_msgs.batch.outputs`); the client never reads an input and never parses a
record (but those of the sequences with runs without a reference, which it judges again
against the span their sequence's runs show, and compares for their repeatability).

When it stops early: a record that cannot be stored stops it at once (a full disk:
nothing more is evaluated, the derived files are not written, ``summary.json`` is
where it can be, every run not stored is named); an executor without a worker, or
without a result, for ``stall_timeout_s`` stops it as incomplete
(:mod:`robot_msgs.batch.watchdog`). Either way ``--resume`` finishes it.
"""

from __future__ import annotations

import math
import sys
import time
import uuid
from dataclasses import KW_ONLY, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import numpy as np

from robot_msgs._version import __version__
from robot_msgs.batch.backends import make_executor
from robot_msgs.batch.blocks import BLOCK_RUNS
from robot_msgs.batch.executors import Stopped, Waiting, check_count
from robot_msgs.batch.inputs import settings_identity
from robot_msgs.batch.intake import RunIntake, StoredCheck
from robot_msgs.batch.lock import FolderLock
from robot_msgs.batch.outputs import (
    DERIVED_FILES,
    OutputsWriter,
    outputs_current,
    read_summary,
    sweep_parts,
    unlink_streams,
)
from robot_msgs.batch.plan import ChunkPlan, SweepState
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.summary import SweepSummary
from robot_msgs.batch.tasks import INFRASTRUCTURE
from robot_msgs.batch.watchdog import STALL_TIMEOUT_S, Watchdog
from robot_msgs.batch.worker import NOT_RUN, Job
from robot_msgs.errors import OutputExistsError, RobotMsgsError, ValidationError
from robot_msgs.files import check_folder, sweep_temporaries, write_atomic
from robot_msgs.progress import Progress
from robot_msgs.report.text import counted
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    from robot_msgs.batch.executors import Executor
    from robot_msgs.batch.outputs import SweepOutputs
    from robot_msgs.batch.tasks import RunFunction
    from robot_msgs.runs.manifest import Manifest, RunReader

__all__ = ["OUTPUT_FILES", "run_sweep"]

#: Files a sweep writes next to ``runs/`` (``results.csv`` replaces the Parquet without pyarrow).
OUTPUT_FILES = (*DERIVED_FILES, "summary.json")


def _peak_rss_mb() -> float | None:
    """Return the peak resident memory of this process in MiB (``ru_maxrss``)."""
    try:
        import resource  # noqa: PLC0415 - Unix only
    except ImportError:  # pragma: no cover - Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # macOS counts bytes


def _check_seconds(name: str, value: float | None, *, zero: bool) -> None:
    """Refuse a duration that is not a finite number > 0 (>= 0 with ``zero``)."""
    if value is None:
        return
    ok = (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and (value >= 0 if zero else value > 0)
    )
    if not ok:
        bound = ">= 0" if zero else "> 0"
        reason = f"expected a number of seconds {bound}, got {value!r}"
        msg = f"Expected `{name}` {bound}, got {value!r}"
        raise ValidationError(msg, field=name, reason=reason)


def run_sweep(
    manifest: Manifest | RunReader,
    out: str | Path,
    *,
    fn: RunFunction,
    executor: str | Executor = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    retries: int = 2,
    resume: bool = False,
    force: bool = False,
    verify: bool = False,
    progress: TextIO | None = sys.stderr,
    dashboard: bool = False,
    chunk_s: float | None = None,
    stall_timeout_s: float = STALL_TIMEOUT_S,
    lock: FolderLock | None = None,
) -> SweepSummary:
    """Evaluate every run of ``manifest`` and write the outputs under ``out``.

    Parameters
    ----------
    manifest : Manifest or RunReader
        Runs and settings (:func:`~robot_msgs.runs.load_runs`), or a reader of them
        (:class:`~robot_msgs.runs.RunReader`): the first runs are then computed while
        the rest are read (:mod:`robot_msgs.batch.intake`).
    out : path-like
        Output folder (created); the workers write the records there, so they must see it.
        It is locked while the sweep runs (:class:`~robot_msgs.batch.lock.FolderLock`).
    fn : callable
        The per-run function, top-level and picklable, returning the run's
        :class:`~robot_msgs.compare.RunReport`
        (:func:`~robot_msgs.batch.worker.evaluate_task`).
    executor : str or Executor
        ``"local"`` (worker processes), ``"dask"``, ``"serial"``, or an executor
        instance (entered here).
    workers, scheduler, dashboard
        Passed to :func:`~robot_msgs.batch.backends.make_executor`; the dashboard's
        address is written to ``progress`` once the cluster is up.
    retries : int
        Re-runs of a run whose worker died while it ran alone, or that the
        infrastructure lost (the scheduler, the connection), before it is recorded as
        not evaluated; the same for every executor.
    resume : bool
        Keep the stored results whose inputs are unchanged; compute the rest. Temporary
        files a killed earlier sweep left in the records' folders are removed first.
    force : bool
        Recompute everything and overwrite the outputs.
    verify : bool
        With ``resume``: trust no input's stamp; the workers re-hash every input and
        keep only results whose content digest is unchanged.
    progress : text stream or None
        Where the progress lines go (``None``: silent); the first is written at once.
    chunk_s : float, optional
        Seconds of measured work a chunk aims at; default
        :func:`~robot_msgs.batch.plan.default_chunk_s` of the executor's worker threads.
    stall_timeout_s : float
        Seconds without a worker, or without a result, before the sweep stops as an
        incomplete one (:mod:`robot_msgs.batch.watchdog`); 0: never.
    lock : FolderLock, optional
        The lock of ``out``, already taken by the caller (which releases it); by
        default it is taken here and released on return.

    Returns
    -------
    SweepSummary
        Its ``stopped`` says why the sweep stopped early: a record or an output that
        could not be written (``storage_error``; the derived files are then not
        written, ``summary.json`` where it can be), no worker for ``stall_timeout_s``.

    Raises
    ------
    OutputExistsError
        ``out`` holds results and neither ``resume`` nor ``force`` is set.
    FolderLockedError
        Another sweep holds ``out``'s lock.
    OutputPathError
        ``out`` is a file, or cannot be created or written (checked before any run).
    ValidationError
        ``retries < 0``, ``verify`` without ``resume``, bad executor options
        (``workers``, ``scheduler``), ``chunk_s <= 0``, ``stall_timeout_s < 0``,
        before any run.
    """
    check_count("retries", retries, least=0)
    _check_seconds("chunk_s", chunk_s, zero=False)
    _check_seconds("stall_timeout_s", stall_timeout_s, zero=True)
    if verify and not resume:
        msg = "`verify=True` re-hashes the inputs of stored results: it goes with `resume=True`"
        raise ValidationError(msg)
    started = (time.perf_counter(), time.process_time())
    folder = check_folder(Path(out))
    runner = (
        executor
        if not isinstance(executor, str)
        else make_executor(executor, workers=workers, scheduler=scheduler, dashboard=dashboard)
    )  # first: a bad address or a missing extra is refused before anything is read
    held = lock if lock is not None else FolderLock(folder)
    if lock is None:
        folder.mkdir(parents=True, exist_ok=True)
    taken = held.acquire()
    try:
        sweep = _Sweep(
            manifest,
            folder,
            fn=fn,
            retries=retries,
            resume=resume,
            force=force,
            verify=verify,
            progress=progress,
            chunk_s=chunk_s,
            stall_timeout_s=stall_timeout_s,
            started=started,
        )
        if taken:
            sweep.say(f"bench: {taken}")
        return sweep.run(runner)
    finally:
        if lock is None:
            held.release()


@dataclass(eq=False)
class _Sweep:
    """One sweep's steps and what they share (:func:`run_sweep` checks the arguments)."""

    source: Manifest | RunReader
    folder: Path
    _: KW_ONLY
    fn: RunFunction
    retries: int
    resume: bool
    force: bool
    verify: bool
    progress: TextIO | None
    chunk_s: float | None
    stall_timeout_s: float
    started: tuple[float, float]
    store: ResultStore = field(init=False)
    stopped: str = field(default="", init=False)
    storage_error: bool = field(default=False, init=False)
    outputs_s: float = field(default=0.0, init=False)
    compute_cpu_s: float = field(default=0.0, init=False)
    blocks: tuple[int, int] = field(default=(0, 0), init=False)
    #: The executor cannot run the outputs' blocks (its scheduler is gone, no worker).
    executor_gone: bool = field(default=False, init=False)
    _kept_said: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        self.store = ResultStore(self.folder)

    def say(self, text: str) -> None:
        """Write a line to the progress stream: escaped, and folded on a terminal.

        WHY: written as it was, 'bench: 18 runs into <folder>' ran off a terminal's edge
        where the CLI's own lines fold; in a pipe or a log it stays one line, for grep.
        """
        if self.progress is not None:
            from robot_msgs.cli._boundary import escape, folded  # noqa: PLC0415

            self.progress.write(folded(escape(text), self.progress) + "\n")
            self.progress.flush()

    def run(self, runner: Executor) -> SweepSummary:
        """Check what is stored, compute the rest, write the outputs and the summary."""
        source, folder, store, say = self.source, self.folder, self.store, self.say
        existing = [name for name in OUTPUT_FILES if (folder / name).exists()]
        if not (self.resume or self.force) and (existing or store.has_records()):
            what = existing[0] if existing else "runs/"
            msg = (
                f"{folder} already holds a sweep's results ({what}): pass `resume=True` to "
                "continue it or `force=True` to recompute everything"
            )
            raise OutputExistsError(msg)
        # summary.json too (write_outputs clears its own files by the same rule).
        unlink_streams(folder, OUTPUT_FILES)
        # Each run's key leaves out the ranking-only settings; the outputs' key keeps them,
        # so another ranking rule reuses every record and rewrites the rankings.
        shared = settings_identity(source.settings.evaluated().to_dict(), self.fn)
        named = settings_identity(source.settings.to_dict(), self.fn)
        state = SweepState(0)
        sweep_parts(folder)  # a killed sweep's blocks: ours alone under the lock
        check = None
        if self.resume and not self.force and store.root.is_dir():
            store.sweep_temporaries()
            sweep_temporaries(folder)  # a table a killed sweep was writing
            check = StoredCheck(store, state, shared, named=named, verify=self.verify)
        intake = RunIntake(source, state, check, say=say)
        try:
            return self._run(runner, intake, check, shared, named)
        finally:
            intake.close()

    def _run(
        self,
        runner: Executor,
        intake: RunIntake,
        check: StoredCheck | None,
        shared: str,
        named: str,
    ) -> SweepSummary:
        folder, say, state = self.folder, self.say, intake.state
        first = intake.wait(until_work=True)  # the first run to compute, or every run read
        first += intake.poll()[0]  # and whatever else is read already
        checking = "; checking the stored results" if self.resume else ""
        n = len(intake.runs)
        runs = counted(n, "run")
        if intake.done:
            say(f"bench: {runs} into {folder}{checking}")
            self._said_kept(intake, check)
        else:
            say(
                f"bench: {runs} into {folder} so far{checking}; the first "
                "are computed while the rest are read"
            )
        job = Job(
            settings=intake.settings,
            shared=shared,
            out=str(folder),
            session=uuid.uuid4().hex,
            reuse="any" if self.resume and not self.force else "session",
            retries=self.retries,
        )
        kept_key = check.key if check is not None else ""
        current = None
        if intake.done and not intake.todo and kept_key:
            current = outputs_current(folder, kept_key)
        outputs: SweepOutputs | None = None
        bar: Progress | None = None
        plan: ChunkPlan | None = None
        many_blocks = -(-len(intake.runs) // BLOCK_RUNS) > 1 and runner.name != "serial"
        if first or (current is None and many_blocks):
            with runner:
                link = getattr(runner, "dashboard_link", None)
                if link:
                    say(f"dashboard: {link}")
                if first:
                    plan = ChunkPlan(
                        intake.runs,
                        first,
                        state,
                        retries=self.retries,
                        slots=runner.slots,
                        isolated=runner.isolates,
                        target_s=self.chunk_s,
                        source=None if intake.done else intake.poll,
                    )
                    bar = self._compute(runner, job, plan, intake)
                    if not intake.done:  # stopped early: every run, read to its end, is named
                        plan.drain(intake.wait(until_work=False))
                    self._said_kept(intake, check)
                    self._end(plan, bar, runner)
                if not (self.stopped or self.executor_gone):
                    outputs = self._write_outputs(
                        intake.manifest(), state, shared, named, runner, job
                    )
        if current is not None:  # every record as the files were made from: nothing to rewrite
            say(f"bench: the outputs in {folder} are those of these records: kept")
        elif outputs is None and not self.storage_error:
            outputs = self._write_outputs(intake.manifest(), state, shared, named, None, job)
        return self._summary(
            runner,
            intake.manifest(),
            state,
            intake.todo,
            plan,
            bar,
            job,
            current,
            kept_key,
            outputs,
        )

    def _said_kept(self, intake: RunIntake, check: StoredCheck | None) -> None:
        """Say what ``--resume`` kept, once every run is read (once)."""
        if check is None or self._kept_said:
            return
        self._kept_said = True
        if check.broken:
            self.say(f"bench: {check.broken} stored records are not records (edited?): recomputed")
        what = "re-hashed by the workers" if self.verify else "computed or re-hashed by the workers"
        self.say(f"bench: {check.kept} stored results unchanged; {len(intake.todo)} to be {what}")

    def _compute(self, runner: Executor, job: Job, plan: ChunkPlan, intake: RunIntake) -> Progress:
        """Run the plan's chunks on ``runner``; stop on a storage error or a stall."""
        say = self.say
        more = "" if intake.done else " (and those still to be read)"
        say(f"bench: computing {counted(plan.waiting, 'run')}{more} on {runner.describe()}")
        bar = Progress(plan.waiting, stream=self.progress, more=not intake.done)
        cpu = time.process_time()
        dog = Watchdog(self.stall_timeout_s, where=runner.describe())
        what = ""  # the stall said last
        try:
            for outcome in runner.run(self.fn, job, plan):
                if isinstance(outcome, Waiting):
                    verdict = dog.waiting(
                        workers=outcome.workers, slowest_s=plan.slowest_s, detail=outcome.detail
                    )
                    changed = verdict.what != what
                    if changed:  # a log line each time the condition changes
                        what = verdict.what
                        say(f"bench: {verdict.note or verdict.stop}" if what else "bench: going on")
                    bar.note = verdict.note
                    bar.show(now=changed)  # the count of seconds, as often as the rate
                    if verdict.stop:
                        self.stopped = verdict.stop
                        self.executor_gone = True
                        break
                    continue
                if isinstance(outcome, Stopped):
                    self.executor_gone = True
                dog.result()
                if what:
                    what = bar.note = ""
                    say(f"bench: results again from {runner.describe()}")
                ended = plan.take(outcome)
                if isinstance(outcome, Stopped):  # every run left: not run, not in the rate
                    bar.skip(len(ended))
                    continue
                lost = sum(s.status in INFRASTRUCTURE for s in ended)
                failed = sum(s.status == "failed" for s in ended)
                bar.total, bar.more = len(intake.todo), not intake.done
                bar.advance(len(ended), failed=failed, lost=lost)
                plan.slots = runner.slots
        except BaseException:
            bar.close()  # an interrupt leaves the stored records and a finished line
            raise
        finally:
            self.compute_cpu_s = time.process_time() - cpu
        return bar

    def _end(self, plan: ChunkPlan, bar: Progress, runner: Executor) -> None:
        """End the runs the plan did not finish (the sweep stopped early), and the line."""
        try:
            if plan.stopped:
                self.stopped, self.storage_error = plan.stopped, True
            if not plan.finished:
                why = (
                    f"not evaluated: the sweep stopped: {self.stopped}"
                    if self.stopped
                    else f"{runner.describe()} stopped early"
                )
                bar.total, bar.more = plan.state.n - int(plan.state.reused.sum()), False
                bar.skip(len(plan.abandon(NOT_RUN, why)))
        finally:
            bar.close()

    def _write_outputs(
        self,
        manifest: Manifest,
        state: SweepState,
        shared: str,
        named: str,
        runner: Executor | None,
        job: Job,
    ) -> SweepOutputs | None:
        """Write the derived files, in blocks on ``runner`` (entered) or in this process.

        A file that cannot be written (a full disk) stops the sweep as a storage error:
        ``None``, nothing half written.
        """
        start = time.perf_counter()
        writer = OutputsWriter(
            manifest,
            state,
            self.store,
            self.folder,
            shared=shared,
            named=named,
            force=self.resume or self.force,
            retries=self.retries,
        )
        where = "this process" if runner is None or runner.name == "serial" else runner.describe()
        blocks = f"{counted(writer.blocks, 'block')} of runs"
        self.say(f"bench: writing the outputs ({blocks}) on {where}")
        try:
            with writer:
                if runner is not None and runner.name != "serial":
                    dog = Watchdog(self.stall_timeout_s, where=runner.describe())
                    for outcome in runner.run(self.fn, job, writer):
                        if isinstance(outcome, Waiting):
                            verdict = dog.waiting(workers=outcome.workers, slowest_s=1.0)
                            if verdict.stop:  # the client writes what is left
                                self.say(f"bench: {verdict.stop}: the rest written here")
                                break
                            continue
                        dog.result()
                        writer.take(outcome)
                outputs = writer.finish()
        except OSError as err:
            if isinstance(err, RobotMsgsError):
                raise
            self.stopped = f"the outputs could not be written: {err}"
            self.storage_error = True
            return None
        finally:
            self.outputs_s = time.perf_counter() - start
            self.blocks = (writer.by_workers, writer.by_client)
        return outputs

    def _summary(
        self,
        runner: Executor,
        manifest: Manifest,
        state: SweepState,
        todo: list[int],
        plan: ChunkPlan | None,
        bar: Progress | None,
        job: Job,
        current: Path | None,
        kept_key: str,
        outputs: SweepOutputs | None,
    ) -> SweepSummary:
        """Count the outcomes; write ``summary.json`` where it can be written."""
        folder = self.folder
        succeeded = int(np.count_nonzero(state.success == 1))
        run_failures = dict(sorted(state.run_failures.items()))
        if current is not None:
            previous = read_summary(folder) or {}  # read as outputs_current read it
            table, notes, outputs_key = str(current), tuple(previous.get("notes", ())), kept_key
            reports_sha256 = previous.get("reports_sha256")
            # Of the records the outputs were made from: runs judged again there (against
            # their sequence's span, robot_msgs.runs.spans) are not so in the state.
            if type(previous.get("n_succeeded")) is int:
                succeeded = previous["n_succeeded"]
            if isinstance(previous.get("run_failures"), dict):
                run_failures = previous["run_failures"]
        elif outputs is not None:
            table, notes, outputs_key = str(outputs.table), outputs.notes, outputs.key
            reports_sha256 = outputs.reports_sha256
        else:
            table, notes, outputs_key, reports_sha256 = "", (), None, None
        counts = state.counts()
        summary = SweepSummary(
            out=str(folder),
            executor=runner.describe(),
            n_runs=len(manifest.runs),
            n_ok=counts["ok"],
            n_succeeded=succeeded,
            n_failed=counts["failed"],
            n_crashed=counts["crashed"],
            n_lost=counts["lost"] + counts["pending"],
            n_reused=int(np.count_nonzero(state.reused)),
            n_computed=len(todo) - int(np.count_nonzero(state.reused[todo])),
            elapsed_s=time.perf_counter() - self.started[0],
            compute_s=0.0 if bar is None else bar.elapsed_s,
            startup_s=float("nan") if bar is None else bar.startup_s,
            throughput=float("nan") if bar is None else bar.throughput,
            table=table,
            run_failures=run_failures,
            errors={
                manifest.runs[i].name: f"{error_type}: {error}"
                for i, (status, error_type, error) in sorted(state.errors.items())
                if status == "failed"
            },
            infrastructure={
                manifest.runs[i].name: f"{error_type}: {error}"
                for i, (status, error_type, error) in sorted(state.errors.items())
                if status != "failed"
            },
            notes=notes,
            stopped=self.stopped,
            storage_error=self.storage_error,
        )
        from robot_msgs.runs import evaluate  # noqa: PLC0415  (read as the run keys read it)

        record = summary.to_dict() | {
            "version": __version__,
            "judging": evaluate.JUDGING_REVISION,  # report of the folder says an older one
            "manifest": manifest.source,
            "settings": manifest.settings.to_dict(),
            "session": job.session,
            "outputs_key": outputs_key,
            "reports_sha256": reports_sha256,
            "seconds_per_run": None if plan is None else plan.seconds_per_run,
            "chunks": 0 if plan is None else plan.chunks,
            "chunk_s": None if plan is None else plan.target_s,
            "outputs_s": self.outputs_s,
            "client_compute_cpu_s": self.compute_cpu_s,
            "output_blocks": {"workers": self.blocks[0], "client": self.blocks[1]},
            "evaluation_cpu_s": state.eval_cpu_s,
            "client_cpu_s": time.process_time() - self.started[1],
            "client_peak_rss_mb": _peak_rss_mb(),
        }
        try:
            write_atomic(folder / "summary.json", dumps(record), force=True)
        except OSError as err:
            if isinstance(err, RobotMsgsError) or not self.storage_error:
                raise
            summary = replace(summary, notes=(*summary.notes, f"summary.json not written: {err}"))
        return summary
