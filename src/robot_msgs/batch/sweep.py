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
``force`` (recompute everything).

What the client does, and what it does not: it checks stored records by their inputs'
stamps (:mod:`robot_msgs.batch.inputs`; ``verify`` sends every run to the workers to be
re-hashed instead), hands chunks to the executor (:mod:`robot_msgs.batch.plan`) and
keeps a few bytes per run from their summaries. The workers hash, evaluate and store;
the client never reads an input and never holds a report until it streams the records
into the outputs (:mod:`robot_msgs.batch.outputs`).
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import numpy as np

from robot_msgs._version import __version__
from robot_msgs.batch.backends import make_executor
from robot_msgs.batch.executors import check_count
from robot_msgs.batch.inputs import input_files, run_key, settings_identity, stamp
from robot_msgs.batch.outputs import DERIVED_FILES, OutputsKey, outputs_current, write_outputs
from robot_msgs.batch.plan import TARGET_CHUNK_S, ChunkPlan, SweepState
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.summary import SweepSummary
from robot_msgs.batch.worker import Job, RunSummary
from robot_msgs.errors import OutputExistsError, ValidationError
from robot_msgs.files import check_folder, sweep_temporaries, write_atomic
from robot_msgs.progress import Progress
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.batch.executors import Executor
    from robot_msgs.batch.inputs import Stamp
    from robot_msgs.batch.tasks import RunFunction
    from robot_msgs.runs.manifest import Manifest

__all__ = ["OUTPUT_FILES", "run_sweep"]

#: Files a sweep writes next to ``runs/`` (``results.csv`` replaces the Parquet without pyarrow).
OUTPUT_FILES = (*DERIVED_FILES, "summary.json")
_STAMPS_KEPT = 4096  # input stamps remembered while checking (shared references)


def _check_stored(
    manifest: Manifest,
    store: ResultStore,
    state: SweepState,
    shared: str,
    *,
    verify: bool,
    say: Callable[[str], None],
) -> tuple[list[int], str]:
    """Keep the stored results whose inputs still show their stamps; return the others.

    A record that is not one (edited by hand, of an older format) is recomputed and
    replaced; ``verify`` keeps nothing here: every run goes to a worker to be re-hashed.
    Also returns the :class:`~robot_msgs.batch.outputs.OutputsKey` of the records kept.
    """
    named = OutputsKey(shared)
    todo: list[int] = []
    stamps: dict[str | None, Stamp] = {}
    broken = 0
    for i, spec in enumerate(manifest.runs):
        try:
            head = store.head(run_key(shared, spec))
        except ValidationError:
            head, broken = None, broken + 1
        if head is None or verify or head.status not in ("ok", "failed"):
            todo.append(i)
            continue
        now = {}
        for role, path in input_files(spec).items():
            if path not in stamps:
                if len(stamps) > _STAMPS_KEPT:
                    stamps.clear()
                stamps[path] = stamp(path)
            now[role] = stamps[path]
        if head.current(now):
            state.finish(RunSummary.kept(i, head, 0.0))
            named.add(head.key, head.digest, head.session)
        else:
            todo.append(i)
    if broken:
        say(f"bench: {broken} stored records are not records (edited?): recomputed")
    return todo, named.hexdigest()


def _peak_rss_mb() -> float | None:
    """Return the peak resident memory of this process in MiB (``ru_maxrss``)."""
    try:
        import resource  # noqa: PLC0415 - Unix only
    except ImportError:  # pragma: no cover - Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # macOS counts bytes


def run_sweep(
    manifest: Manifest,
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
    chunk_s: float = TARGET_CHUNK_S,
) -> SweepSummary:
    """Evaluate every run of ``manifest`` and write the outputs under ``out``.

    Parameters
    ----------
    manifest : Manifest
        Runs and settings (:func:`~robot_msgs.runs.load_runs`).
    out : path-like
        Output folder (created); the workers write the records there, so they must see it.
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
    chunk_s : float
        Seconds of measured work a chunk aims at.

    Returns
    -------
    SweepSummary

    Raises
    ------
    OutputExistsError
        ``out`` holds results and neither ``resume`` nor ``force`` is set.
    OutputPathError
        ``out`` is a file, or cannot be created or written (checked before any run).
    ValidationError
        ``retries < 0``, ``verify`` without ``resume``, bad executor options
        (``workers``, ``scheduler``), before any run.
    """
    check_count("retries", retries, least=0)
    if verify and not resume:
        msg = "--verify re-hashes the inputs of stored results: it goes with --resume"
        raise ValidationError(msg)
    started = (time.perf_counter(), time.process_time())
    folder = check_folder(Path(out))
    store = ResultStore(folder)
    existing = [name for name in OUTPUT_FILES if (folder / name).exists()]
    if not (resume or force) and (existing or store.has_records()):
        what = existing[0] if existing else "runs/"
        msg = (
            f"{folder} already holds a sweep's results ({what}): pass --resume to continue "
            "it or --force to recompute everything"
        )
        raise OutputExistsError(msg)

    def say(text: str) -> None:
        if progress is not None:
            progress.write(text + "\n")
            progress.flush()

    runner = (
        executor
        if not isinstance(executor, str)
        else make_executor(executor, workers=workers, scheduler=scheduler, dashboard=dashboard)
    )  # first: a bad address or a missing extra is refused before anything is read
    n = len(manifest.runs)
    say(f"bench: {n} runs into {folder}" + ("; checking the stored results" if resume else ""))
    shared = settings_identity(manifest.settings.to_dict(), fn)
    state = SweepState(n)
    todo = list(range(n))
    kept_key = ""
    if resume and not force and store.root.is_dir():
        store.sweep_temporaries()
        sweep_temporaries(folder)  # a table a killed sweep was writing
        todo, kept_key = _check_stored(manifest, store, state, shared, verify=verify, say=say)
        kept = n - len(todo)
        what = "re-hashed by the workers" if verify else "computed or re-hashed by the workers"
        say(f"bench: {kept} stored results unchanged; {len(todo)} to be {what}")
    job = Job(
        settings=manifest.settings,
        shared=shared,
        out=str(folder),
        session=uuid.uuid4().hex,
        reuse="any" if resume and not force else "session",
        retries=retries,
    )
    bar: Progress | None = None
    plan: ChunkPlan | None = None
    if todo:
        with runner:
            link = getattr(runner, "dashboard_link", None)
            if link:
                say(f"dashboard: {link}")
            say(f"bench: computing {len(todo)} runs on {runner.describe()}")
            plan = ChunkPlan(
                manifest.runs,
                todo,
                state,
                retries=retries,
                slots=runner.slots,
                isolated=runner.isolates,
                target_s=chunk_s,
            )
            bar = Progress(len(todo), stream=progress)
            try:
                for outcome in runner.run(fn, job, plan):
                    ended = plan.take(outcome)
                    bar.advance(len(ended), failed=sum(s.status != "ok" for s in ended))
                    plan.slots = runner.slots
                if not plan.finished:
                    ended = plan.abandon("NotRun", f"{runner.describe()} stopped early")
                    bar.advance(len(ended), failed=len(ended))
            finally:
                bar.close()  # an interrupt leaves the stored records and a finished line
    current = None if todo or not kept_key else outputs_current(folder, kept_key)
    if current is not None:  # every record as the files were made from: nothing to rewrite
        say(f"bench: the outputs in {folder} are those of these records: kept")
        previous = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        table, notes, outputs_key = current, tuple(previous.get("notes", ())), kept_key
    else:
        outputs = write_outputs(
            manifest, state, store, folder, shared=shared, force=resume or force
        )
        table, notes, outputs_key = outputs.table, outputs.notes, outputs.key
    counts = state.counts()
    summary = SweepSummary(
        out=str(folder),
        executor=runner.describe(),
        n_runs=n,
        n_ok=counts["ok"],
        n_succeeded=int(np.count_nonzero(state.success == 1)),
        n_failed=counts["failed"],
        n_crashed=counts["crashed"],
        n_lost=counts["lost"] + counts["pending"],
        n_reused=int(np.count_nonzero(state.reused)),
        n_computed=len(todo) - int(np.count_nonzero(state.reused[todo])),
        elapsed_s=time.perf_counter() - started[0],
        compute_s=0.0 if bar is None else bar.elapsed_s,
        startup_s=float("nan") if bar is None else bar.startup_s,
        throughput=float("nan") if bar is None else bar.throughput,
        table=str(table),
        run_failures=dict(sorted(state.run_failures.items())),
        errors={
            manifest.runs[i].label: f"{error_type}: {error}"
            for i, (status, error_type, error) in sorted(state.errors.items())
            if status == "failed"
        },
        infrastructure={
            manifest.runs[i].label: f"{error_type}: {error}"
            for i, (status, error_type, error) in sorted(state.errors.items())
            if status != "failed"
        },
        notes=notes,
    )
    record = summary.to_dict() | {
        "version": __version__,
        "manifest": manifest.source,
        "settings": manifest.settings.to_dict(),
        "session": job.session,
        "outputs_key": outputs_key,
        "seconds_per_run": None if plan is None else plan.seconds_per_run,
        "chunks": 0 if plan is None else plan.chunks,
        "evaluation_cpu_s": state.eval_cpu_s,
        "client_cpu_s": time.process_time() - started[1],
        "client_peak_rss_mb": _peak_rss_mb(),
    }
    write_atomic(folder / "summary.json", dumps(record), force=resume or force)
    return summary
