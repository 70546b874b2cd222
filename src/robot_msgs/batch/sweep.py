"""A sweep end to end: tasks, execution, records, then the table and the messages.

Outputs under ``OUT``::

    runs/<digest>.json    one record per run (see :mod:`robot_msgs.batch.store`)
    results.parquet       one row per run, metric and signal (results.csv without pyarrow)
    reports.json          every run's RunReport (success, losses, comparisons, latency...)
    aggregates.json       one Aggregate per (metric, algorithm, sequence)
    ranking.json          per metric, the algorithms ranked across sequences
    repeatability.json    per (algorithm, sequence) without a reference, how trials agree
    summary.json          counts, failures by reason, executor, settings, timing

A folder that already holds results is refused unless ``resume`` (keep the records
whose content hash still matches, compute the rest, rewrite the derived files) or
``force`` (recompute everything).

Two kinds of failure are kept apart: a run that failed (it reported a failure, lost
tracking for good, wrote nothing: ``success`` false in its report) is a result, ranked
against its algorithm; a run that could not be evaluated (``failed``: its input could
not be read; ``crashed``: its worker kept dying) is listed by name in the summary, and
:attr:`SweepSummary.complete` is false.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from robot_msgs._version import __version__
from robot_msgs.batch.executors import Executor, make_executor
from robot_msgs.batch.results_table import rows_from_results, write_table
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.tasks import RunFunction, RunResult, make_tasks
from robot_msgs.compare import Aggregate, aggregate
from robot_msgs.errors import OutputExistsError
from robot_msgs.files import check_folder, sweep_temporaries, write_atomic
from robot_msgs.progress import Progress
from robot_msgs.runs.rank import rank_algorithms
from robot_msgs.runs.repeats import group_repeatability
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.compare import Ranking, Repeatability, RunReport
    from robot_msgs.runs.manifest import Manifest
    from robot_msgs.runs.run_settings import RunSettings

__all__ = [
    "OUTPUT_FILES",
    "SweepSummary",
    "aggregates_from_results",
    "rankings_from_results",
    "run_sweep",
]

_WRITERS = 4  # threads writing per-run records

#: Files a sweep writes next to ``runs/`` (``results.csv`` replaces the Parquet without pyarrow).
OUTPUT_FILES = (
    "results.parquet",
    "results.csv",
    "reports.json",
    "aggregates.json",
    "ranking.json",
    "repeatability.json",
    "summary.json",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepSummary:
    """What a sweep did: counts, failures by reason, where the table is, how long it took.

    ``n_ok`` runs were evaluated (``n_succeeded`` of them succeeded as runs; the others'
    reasons are in ``run_failures``); ``n_failed`` could not be evaluated and
    ``n_crashed`` lost their worker, each named in ``errors`` (run name: error).
    """

    out: str
    executor: str
    n_runs: int
    n_ok: int
    n_succeeded: int
    n_failed: int
    n_crashed: int
    n_reused: int
    n_computed: int
    elapsed_s: float
    table: str
    run_failures: Mapping[str, int] = field(default_factory=dict)
    errors: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        """Whether every run was evaluated (none failed to read, none crashed)."""
        return self.n_failed == 0 and self.n_crashed == 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__} | {
            "run_failures": dict(self.run_failures),
            "errors": dict(self.errors),
            "notes": list(self.notes),
            "complete": self.complete,
        }

    def text(self) -> str:
        """Return the final summary printed by ``robot-msgs bench``.

        Examples
        --------
        >>> s = SweepSummary(out="o", executor="local (2 workers)", n_runs=3, n_ok=2,
        ...                  n_succeeded=1, n_failed=1, n_crashed=0, n_reused=1,
        ...                  n_computed=2, elapsed_s=4.0, table="o/results.parquet",
        ...                  run_failures={"exit code -11": 1},
        ...                  errors={"orb/MH_01/3": "FormatError: est.tum:3: bad"})
        >>> print(s.text())  # doctest: +NORMALIZE_WHITESPACE
        3 runs: 2 evaluated (1 succeeded), 1 failed to evaluate, 0 crashed; 1 reused,
        2 computed in 4.0 s (0.50 runs/s) on local (2 workers)
        run failures: exit code -11 1
        not evaluated: orb/MH_01/3: FormatError: est.tum:3: bad
        table: o/results.parquet
        """
        rate = self.n_computed / self.elapsed_s if self.elapsed_s > 0 else float("nan")
        head = (
            f"{self.n_runs} runs: {self.n_ok} evaluated ({self.n_succeeded} succeeded), "
            f"{self.n_failed} failed to evaluate, {self.n_crashed} crashed; {self.n_reused} "
            f"reused, {self.n_computed} computed in {self.elapsed_s:.1f} s ({rate:.2f} runs/s) "
            f"on {self.executor}"
        )
        lines = [head]
        if self.run_failures:
            reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.run_failures.items()))
            lines.append(f"run failures: {reasons}")
        lines.extend(f"not evaluated: {name}: {error}" for name, error in self.errors.items())
        lines.extend(f"note: {note}" for note in self.notes)
        lines.append(f"table: {self.table}")
        return "\n".join(lines)


def _reason(result: RunResult) -> str:
    """Why a run did not succeed: its own failure, or why it was not evaluated."""
    if result.report is not None:
        return result.report.failure
    return result.error_type or result.status


def aggregates_from_results(results: Sequence[RunResult], settings: RunSettings) -> list[Aggregate]:
    """One ``Aggregate`` per metric and (algorithm, sequence), failures counted by reason.

    Groups are in the results' order (the manifest's), metrics in the settings' order;
    a group none of whose runs has the metric (no reference) has no aggregate.
    """
    groups: dict[tuple[str, str], list[RunResult]] = {}
    for result in results:
        groups.setdefault((result.algorithm, result.sequence), []).append(result)
    out = []
    for metric in settings.metrics:
        for (algorithm, sequence), members in groups.items():
            reports = [r.report for r in members if r.report is not None]
            if not any(metric.name in r.comparisons for r in reports):
                continue
            ok = [
                r.report.comparisons[metric.name]
                for r in members
                if r.report is not None and r.report.success and metric.name in r.report.comparisons
            ]
            agg = aggregate(
                ok,
                failures=[_reason(r) for r in members if r.report is None or not r.report.success],
                statistic=settings.statistic,
                group={"evaluation": metric.name, "algorithm": algorithm, "sequence": sequence},
            )
            out.append(agg if ok else agg.replace(metric=metric.metric))
    return out


def _reports(results: Sequence[RunResult]) -> list[RunReport]:
    return [r.run_report() for r in results]


def rankings_from_results(
    results: Sequence[RunResult], settings: RunSettings, *, force: bool = False
) -> list[tuple[str, Ranking | None]]:
    """One ranking of the algorithms per metric (:func:`~robot_msgs.runs.rank_algorithms`).

    Runs that failed or could not be evaluated count against their algorithm's success;
    algorithms are ranked per sequence by the median over successful runs of
    ``settings.statistic`` of the metric's first signal, then by mean rank, exactly as
    ``robot-msgs report`` ranks by its first metric. ``None`` where no run has the metric.

    Raises
    ------
    SettingsMismatchError
        Comparisons of one metric made with different settings, unless ``force``.
    """
    reports = _reports(results)
    return [
        (
            metric.name,
            rank_algorithms(reports, metric=metric.name, statistic=settings.statistic, force=force),
        )
        for metric in settings.metrics
    ]


def _repeatability(
    results: Sequence[RunResult], manifest: Manifest
) -> tuple[dict[str, Repeatability], list[str]]:
    """Repeatability of the groups without a reference (their estimates read here), notes.

    WHY in the client: it compares a group's trials with each other, so it needs all of
    them at once; it is the few groups without ground truth, read after the sweep.
    """
    from robot_msgs.errors import RobotMsgsError  # noqa: PLC0415
    from robot_msgs.runs.load import load_run  # noqa: PLC0415 - only sweeps that need it

    reports = _reports(results)
    candidates = {(r.algorithm, r.sequence) for r in reports if r.success and not r.has_reference}
    estimates = {}
    notes = []
    for spec, report in zip(manifest.runs, reports, strict=True):
        if (report.algorithm, report.sequence) in candidates and report.success:
            try:
                estimates[spec.name] = load_run(spec).estimate
            except (RobotMsgsError, OSError) as err:
                notes.append(f"repeatability of {spec.label} left out: {err}")
    return group_repeatability(reports, estimates, manifest.settings.evaluation), notes


def _describe(executor: Executor) -> str:
    workers = getattr(executor, "workers", None)
    scheduler = getattr(executor, "scheduler", None)
    if scheduler:
        return f"{executor.name} ({scheduler})"
    return f"{executor.name} ({workers} workers)" if workers else executor.name


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
    progress: TextIO | None = sys.stderr,
    dashboard: bool = False,
) -> SweepSummary:
    """Evaluate every run of ``manifest`` and write the outputs under ``out``.

    Parameters
    ----------
    manifest : Manifest
        Runs and settings (:func:`~robot_msgs.runs.load_runs`).
    out : path-like
        Output folder (created).
    fn : callable
        The per-run function, top-level and picklable, returning the run's
        :class:`~robot_msgs.compare.RunReport`
        (:func:`~robot_msgs.batch.worker.evaluate_task`).
    executor : str or Executor
        ``"local"`` (worker processes), ``"dask"``, ``"serial"``, or an executor
        instance (entered here).
    workers, scheduler, retries, dashboard
        Passed to :func:`~robot_msgs.batch.executors.make_executor`; the dashboard's
        address is written to ``progress`` once the cluster is up.
    resume : bool
        Keep the stored records whose content hash matches; compute the rest. Temporary
        files a killed earlier sweep left in the records' folder are removed first.
    force : bool
        Recompute everything and overwrite the outputs.
    progress : text stream or None
        Where the progress line goes (``None``: silent).

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
        Bad executor options (``workers``, ``retries``, ``scheduler``), before any run.
    """
    folder = check_folder(Path(out))
    store = ResultStore(folder)
    existing = [name for name in OUTPUT_FILES if (folder / name).exists()]
    if not (resume or force) and (store.has_records() or existing):
        what = existing[0] if existing else "runs/"
        msg = (
            f"{folder} already holds a sweep's results ({what}): pass --resume to continue "
            "it or --force to recompute everything"
        )
        raise OutputExistsError(msg)
    started = time.perf_counter()
    # Built before the inputs are hashed: a bad address or worker count is refused at once.
    runner = (
        executor
        if not isinstance(executor, str)
        else make_executor(
            executor, workers=workers, scheduler=scheduler, retries=retries, dashboard=dashboard
        )
    )
    if resume and store.root.is_dir():
        sweep_temporaries(store.root)
    tasks = make_tasks(manifest, fn)
    reused = store.reusable(tasks) if resume and not force else {}
    computed: dict[str, RunResult] = {}
    todo = [t for t in tasks if t.digest not in reused]
    bar = Progress(len(todo), stream=progress)
    # Records are written by a few threads (the fsync of each releases the GIL), so the
    # client keeps up with many workers; every write is awaited, and its error raised.
    saving: list[Future[Path]] = []
    try:
        with ThreadPoolExecutor(max_workers=_WRITERS) as writer:
            if todo:
                with runner:
                    link = getattr(runner, "dashboard_link", None)
                    if link and progress is not None:
                        progress.write(f"dashboard: {link}\n")
                    for result in runner.run(fn, todo):
                        saving.append(writer.submit(store.save, result))
                        computed[result.digest] = result
                        bar.advance(failed=result.status != "ok")
    finally:
        bar.close()  # an interrupt leaves the stored records and a finished line
    for future in saving:
        future.result()
    results = [reused.get(t.digest) or computed[t.digest] for t in tasks]
    overwrite = resume or force
    settings = manifest.settings
    rows = rows_from_results(results, settings)
    table, note = write_table(rows, folder, force=overwrite)
    repeats, repeat_notes = _repeatability(results, manifest)
    reports = [
        {
            "run": r.name,
            "status": r.status,
            "report": r.report.replace(repeatability=repeats.get(r.name)).to_dict(),
        }
        for r in results
        if r.report is not None
    ]
    write_atomic(folder / "reports.json", dumps(reports, indent=None), force=overwrite)
    aggregates = aggregates_from_results(results, settings)
    write_atomic(
        folder / "aggregates.json", dumps([a.to_dict() for a in aggregates]), force=overwrite
    )
    rankings = [
        {"evaluation": name, "ranking": ranking.to_dict() if ranking else None}
        for name, ranking in rankings_from_results(results, settings)
    ]
    write_atomic(folder / "ranking.json", dumps(rankings), force=overwrite)
    groups = {repeat.runs: repeat for repeat in repeats.values()}
    write_atomic(
        folder / "repeatability.json",
        dumps([repeat.to_dict() for repeat in groups.values()]),
        force=overwrite,
    )
    statuses = Counter(r.status for r in results)
    summary = SweepSummary(
        out=str(folder),
        executor=_describe(runner),
        n_runs=len(results),
        n_ok=statuses["ok"],
        n_succeeded=sum(r.report is not None and r.report.success for r in results),
        n_failed=statuses["failed"],
        n_crashed=statuses["crashed"],
        n_reused=len(reused),
        n_computed=len(todo),
        elapsed_s=time.perf_counter() - started,
        table=str(table),
        run_failures=dict(
            Counter(
                r.report.failure for r in results if r.report is not None and not r.report.success
            )
        ),
        errors={r.name: f"{r.error_type}: {r.error}" for r in results if r.status != "ok"},
        notes=((note,) if note else ()) + tuple(repeat_notes),
    )
    record = summary.to_dict() | {
        "version": __version__,
        "manifest": manifest.source,
        "settings": settings.to_dict(),
    }
    write_atomic(folder / "summary.json", dumps(record), force=overwrite)
    return summary
