"""A sweep end to end: tasks, execution, records, then the table and the messages.

Outputs under ``OUT``::

    runs/<digest>.json    one record per run (see :mod:`robot_msgs.batch.store`)
    results.parquet       one row per run, evaluation and signal (results.csv without pyarrow)
    comparisons.json      every run's Comparisons with its keys
    aggregates.json       one Aggregate per (evaluation, algorithm, sequence)
    ranking.json          per evaluation, the algorithms ranked across sequences
    summary.json          counts, failures by reason, executor, settings, timing

A folder that already holds results is refused unless ``resume`` (keep the records
whose content hash still matches, compute the rest, rewrite the derived files) or
``force`` (recompute everything).
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
from robot_msgs.batch.progress import Progress
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.table import rows_from_results, write_table
from robot_msgs.batch.tasks import RunFunction, RunResult, make_tasks
from robot_msgs.compare import Aggregate, RunReport, aggregate
from robot_msgs.errors import OutputExistsError
from robot_msgs.files import write_atomic
from robot_msgs.report.ranking import rank_algorithms
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.batch.manifest import Manifest
    from robot_msgs.batch.settings import Settings
    from robot_msgs.compare import Ranking

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
    "comparisons.json",
    "aggregates.json",
    "ranking.json",
    "summary.json",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepSummary:
    """What a sweep did: counts, failures by reason, where the table is, how long it took."""

    out: str
    executor: str
    n_runs: int
    n_ok: int
    n_failed: int
    n_crashed: int
    n_reused: int
    n_computed: int
    elapsed_s: float
    table: str
    failures: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__} | {
            "failures": dict(self.failures),
            "notes": list(self.notes),
        }

    def text(self) -> str:
        """The final summary printed by ``robot-msgs bench``.

        Examples
        --------
        >>> s = SweepSummary(out="o", executor="local (2 workers)", n_runs=3, n_ok=2,
        ...                  n_failed=1, n_crashed=0, n_reused=1, n_computed=2,
        ...                  elapsed_s=4.0, table="o/results.parquet",
        ...                  failures={"FormatError": 1})
        >>> print(s.text())  # doctest: +NORMALIZE_WHITESPACE
        3 runs: 2 ok, 1 failed, 0 crashed; 1 reused, 2 computed in 4.0 s (0.50 runs/s)
        on local (2 workers)
        failures: FormatError 1
        table: o/results.parquet
        """
        rate = self.n_computed / self.elapsed_s if self.elapsed_s > 0 else float("nan")
        head = (
            f"{self.n_runs} runs: {self.n_ok} ok, {self.n_failed} failed, {self.n_crashed} "
            f"crashed; {self.n_reused} reused, {self.n_computed} computed in "
            f"{self.elapsed_s:.1f} s ({rate:.2f} runs/s) on {self.executor}"
        )
        lines = [head]
        if self.failures:
            reasons = ", ".join(f"{k} {v}" for k, v in sorted(self.failures.items()))
            lines.append(f"failures: {reasons}")
        lines.extend(f"note: {note}" for note in self.notes)
        lines.append(f"table: {self.table}")
        return "\n".join(lines)


def aggregates_from_results(results: Sequence[RunResult], settings: Settings) -> list[Aggregate]:
    """One ``Aggregate`` per evaluation and (algorithm, sequence), failures counted by type.

    Groups are in the results' order (the manifest's), evaluations in the settings' order.
    """
    groups: dict[tuple[str, str], list[RunResult]] = {}
    for result in results:
        groups.setdefault((result.algorithm, result.sequence), []).append(result)
    out = []
    for index, evaluation in enumerate(settings.evaluations):
        for (algorithm, sequence), members in groups.items():
            ok = [r.comparisons[index] for r in members if r.status == "ok"]
            agg = aggregate(
                ok,
                failures=[r.error_type for r in members if r.status != "ok"],
                statistic=settings.statistic,
                group={"evaluation": evaluation.name, "algorithm": algorithm, "sequence": sequence},
            )
            out.append(agg if ok else agg.replace(metric=evaluation.metric))
    return out


def rankings_from_results(
    results: Sequence[RunResult], settings: Settings, *, force: bool = False
) -> list[tuple[str, Ranking | None]]:
    """One ranking of the algorithms per evaluation (:func:`~robot_msgs.report.rank_algorithms`).

    Each run becomes a ``RunReport`` whose accuracy is that evaluation's Comparison
    (failed runs count against their algorithm's success); algorithms are ranked per
    sequence by the median over successful runs of ``settings.statistic`` of the
    Comparison's first signal, then by mean rank. ``None`` where no run succeeded.

    Raises
    ------
    SettingsMismatchError
        Comparisons of one evaluation made with different settings, unless ``force``.
    """
    out: list[tuple[str, Ranking | None]] = []
    for index, evaluation in enumerate(settings.evaluations):
        reports = [
            RunReport(
                name=f"{r.algorithm}/{r.sequence}/{r.trial}",
                success=r.status == "ok",
                algorithm=r.algorithm,
                sequence=r.sequence,
                trial=int(r.trial) if r.trial.isdigit() else 0,
                failure="" if r.status == "ok" else f"{r.error_type}: {r.error}",
                accuracy=r.comparisons[index] if r.status == "ok" else None,
            )
            for r in results
        ]
        first = next((r.accuracy for r in reports if r.accuracy is not None), None)
        ranking = None
        if first is not None:
            signal = next(iter(first.stats))
            ranking = rank_algorithms(
                reports, signal=signal, statistic=settings.statistic, force=force
            )
        out.append((evaluation.name, ranking))
    return out


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
) -> SweepSummary:
    """Evaluate every run of ``manifest`` and write the outputs under ``out``.

    Parameters
    ----------
    manifest : Manifest
        Runs and settings (:func:`~robot_msgs.batch.manifest.load_bench_input`).
    out : path-like
        Output folder (created).
    fn : callable
        The per-run function, top-level and picklable, returning one Comparison per
        evaluation of the settings, in order.
    executor : str or Executor
        ``"local"`` (worker processes), ``"dask"``, ``"serial"``, or an executor
        instance (entered here).
    workers, scheduler, retries
        Passed to :func:`~robot_msgs.batch.executors.make_executor`.
    resume : bool
        Keep the stored records whose content hash matches; compute the rest.
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
    """
    folder = Path(out)
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
    tasks = make_tasks(manifest, fn)
    reused = store.reusable(tasks) if resume and not force else {}
    computed: dict[str, RunResult] = {}
    todo = [t for t in tasks if t.digest not in reused]
    runner = (
        executor
        if not isinstance(executor, str)
        else make_executor(executor, workers=workers, scheduler=scheduler, retries=retries)
    )
    bar = Progress(len(todo), stream=progress)
    # Records are written by a few threads (the fsync of each releases the GIL), so the
    # client keeps up with many workers; every write is awaited, and its error raised.
    saving: list[Future[Path]] = []
    try:
        with ThreadPoolExecutor(max_workers=_WRITERS) as writer:
            if todo:
                with runner:
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
    rows = rows_from_results(results, manifest.settings)
    table, note = write_table(rows, folder, force=overwrite)
    comparisons = [
        {"algorithm": r.algorithm, "sequence": r.sequence, "trial": r.trial,
         "evaluation": ev.name, "comparison": c.to_dict()}
        for r in results
        if r.status == "ok"
        for ev, c in zip(manifest.settings.evaluations, r.comparisons, strict=True)
    ]  # fmt: skip
    write_atomic(folder / "comparisons.json", dumps(comparisons, indent=None), force=overwrite)
    aggregates = aggregates_from_results(results, manifest.settings)
    write_atomic(
        folder / "aggregates.json", dumps([a.to_dict() for a in aggregates]), force=overwrite
    )
    rankings = [
        {"evaluation": name, "ranking": ranking.to_dict() if ranking else None}
        for name, ranking in rankings_from_results(results, manifest.settings)
    ]
    write_atomic(folder / "ranking.json", dumps(rankings), force=overwrite)
    statuses = Counter(r.status for r in results)
    summary = SweepSummary(
        out=str(folder),
        executor=_describe(runner),
        n_runs=len(results),
        n_ok=statuses["ok"],
        n_failed=statuses["failed"],
        n_crashed=statuses["crashed"],
        n_reused=len(reused),
        n_computed=len(todo),
        elapsed_s=time.perf_counter() - started,
        table=str(table),
        failures=dict(Counter(r.error_type for r in results if r.status != "ok")),
        notes=(note,) if note else (),
    )
    record = summary.to_dict() | {
        "version": __version__,
        "manifest": manifest.source,
        "settings": manifest.settings.to_dict(),
    }
    write_atomic(folder / "summary.json", dumps(record), force=overwrite)
    return summary
