"""A sweep's derived files, streamed from the records in the manifest's order.

Written once every run has ended (:func:`write_outputs`)::

    results.parquet       one row per run, metric and signal (results.csv without pyarrow)
    reports.json          every evaluated run's RunReport (success, losses, comparisons...)
    aggregates.json       one Aggregate per (metric, algorithm, sequence)
    ranking.json          per metric, the algorithms ranked across sequences
    repeatability.json    per (algorithm, sequence) without a reference, how trials agree

WHY streamed: the client held every result of a sweep (about 14 KB a run, 14 GB at
10^6 runs) to write these files. Here each record is read, turned into table rows, a
``reports.json`` entry and a float or two per metric for the aggregates and rankings
(:class:`~robot_msgs.compare.AggregateTally`, :class:`~robot_msgs.runs.RankingTally`),
and dropped: the client's memory is one Parquet row group and a few floats a run. The
tables follow the manifest's order whatever order the runs finished in, so every
executor writes the same bytes.

Runs lost to the infrastructure have a table row saying so, and are left out of the
aggregates and rankings (each says how many it lacks and why), never counted as their
algorithm's failures.

The files are a function of the records they were streamed from, which
:class:`OutputsKey` names (each run's key, content digest and session, the settings and
the package version); ``summary.json`` keeps it, so a ``--resume`` that finds every
record as it was rewrites nothing (:func:`outputs_current`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs._version import __version__
from robot_msgs.batch.inputs import run_key
from robot_msgs.batch.results_table import TableWriter, rows_of
from robot_msgs.batch.tasks import INFRASTRUCTURE, RunResult, Task
from robot_msgs.compare.aggregation import AggregateTally
from robot_msgs.errors import ValidationError
from robot_msgs.files import open_atomic, write_atomic
from robot_msgs.runs.rank import RankingTally
from robot_msgs.strict_json import dumps, json_safe

if TYPE_CHECKING:
    from collections.abc import Iterator

    from robot_msgs.batch.plan import SweepState
    from robot_msgs.batch.store import ResultStore
    from robot_msgs.compare import Aggregate, Ranking, Repeatability
    from robot_msgs.runs.manifest import Manifest

__all__ = ["DERIVED_FILES", "OutputsKey", "SweepOutputs", "outputs_current", "write_outputs"]

#: The files written from the records (``results.csv`` replaces the Parquet without pyarrow).
DERIVED_FILES = (
    "results.parquet",
    "results.csv",
    "reports.json",
    "aggregates.json",
    "ranking.json",
    "repeatability.json",
)


class OutputsKey:
    """Name what the derived files are made of: every run's record, in the manifest's order.

    Examples
    --------
    >>> a, b = OutputsKey("settings"), OutputsKey("settings")
    >>> a.add("k1", "d1", "s1"); b.add("k1", "d1", "s2")
    >>> a.hexdigest() == b.hexdigest()  # another session: maybe other timings, recomputed
    False
    """

    def __init__(self, shared: str) -> None:
        self._hash = hashlib.sha256(f"{__version__}\n{shared}\n".encode())

    def add(self, key: str, digest: str, session: str) -> None:
        """Add the next run's record."""
        self._hash.update(f"{key} {digest} {session}\n".encode())

    def add_unfinished(self, position: int, status: str) -> None:
        """Add the next run, which has no record."""
        self._hash.update(f"{position} {status}\n".encode())

    def hexdigest(self) -> str:
        """Return the name (64 hex digits)."""
        return self._hash.hexdigest()


def outputs_current(folder: str | Path, key: str) -> Path | None:
    """Return the table when every derived file was written from the records ``key`` names.

    ``None`` when a file is missing or ``summary.json`` names other records.
    """
    out = Path(folder)
    try:
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(summary, dict) or summary.get("outputs_key") != key:
        return None
    table = out / Path(str(summary.get("table", ""))).name
    others = [name for name in DERIVED_FILES if not name.startswith("results.")]
    if table.name not in ("results.parquet", "results.csv") or not table.is_file():
        return None
    return table if all((out / name).is_file() for name in others) else None


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepOutputs:
    """What :func:`write_outputs` wrote: the table, the rankings, notes, what they are made of."""

    table: Path
    rankings: tuple[tuple[str, Ranking | None], ...]
    repeatability: tuple[Repeatability, ...]
    notes: tuple[str, ...]
    key: str


def _results(
    manifest: Manifest, state: SweepState, store: ResultStore, shared: str, named: OutputsKey
) -> Iterator[tuple[RunResult, dict[str, Any] | None]]:
    """Every run's result in the manifest's order: its record, or why it has none.

    With each, the stored JSON form of its report (``None`` without a record).
    """
    for i, spec in enumerate(manifest.runs):
        status = state.status_of(i)
        if status is None or status in INFRASTRUCTURE:
            _, error_type, error = state.errors.get(i, ("lost", "NotRun", "never run"))
            task = Task(run=spec, settings=manifest.settings, digest="")
            status = "lost" if status is None else status
            named.add_unfinished(i, status)
            yield RunResult.failure(task, status, error_type, error), None
            continue
        key = run_key(shared, spec)
        found = store.load_with_json(key)
        if found is None:
            msg = f"no record of {spec.label} in {store.path_for(key)}"
            raise ValidationError(msg)
        record, data = found
        named.add(key, record.result.digest, record.session)
        yield record.result, data["result"]["report"]


def _repeatability(
    manifest: Manifest, state: SweepState, store: ResultStore, shared: str
) -> tuple[dict[str, Repeatability], list[str]]:
    """Repeatability of the groups without a reference (their estimates read here), notes.

    WHY in the client: it compares a group's trials with each other, so it needs all of
    them at once; it is the few groups without ground truth, one group at a time.
    """
    from robot_msgs.errors import RobotMsgsError  # noqa: PLC0415
    from robot_msgs.runs.load import load_run  # noqa: PLC0415 - only sweeps that need it
    from robot_msgs.runs.repeats import group_repeatability  # noqa: PLC0415

    # A first pass keeps two numbers a group (any reference, successes), a second the
    # members of the few groups without a reference: no list of every run.
    tally: dict[tuple[str, str], list[int]] = {}
    for i, spec in enumerate(manifest.runs):
        seen = tally.setdefault((spec.algorithm, spec.sequence), [0, 0])
        seen[0] |= bool(state.has_reference[i])
        seen[1] += int(state.success[i] == 1)
    wanted = {k for k, (referenced, succeeded) in tally.items() if not referenced and succeeded > 1}
    groups: dict[tuple[str, str], list[int]] = {}
    for i, spec in enumerate(manifest.runs):
        if (spec.algorithm, spec.sequence) in wanted:
            groups.setdefault((spec.algorithm, spec.sequence), []).append(i)
    out: dict[str, Repeatability] = {}
    notes: list[str] = []
    for members in groups.values():
        reports = []
        estimates = {}
        for i in members:
            spec = manifest.runs[i]
            record = store.load(run_key(shared, spec)) if state.success[i] >= 0 else None
            if record is None:
                continue
            reports.append(record.result.run_report())
            if state.success[i] == 1:
                try:
                    estimates[spec.name] = load_run(spec).estimate
                except (RobotMsgsError, OSError) as err:
                    notes.append(f"repeatability of {spec.label} left out: {err}")
        out.update(group_repeatability(reports, estimates, manifest.settings.evaluation))
    return out, notes


def write_outputs(
    manifest: Manifest,
    state: SweepState,
    store: ResultStore,
    folder: str | Path,
    *,
    shared: str,
    force: bool = False,
) -> SweepOutputs:
    """Stream every run's record into the table, ``reports.json`` and the tallies; write all.

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
        The sweep's :func:`~robot_msgs.batch.inputs.settings_identity` (finds the records).
    force : bool
        Replace the files of an earlier sweep.

    Raises
    ------
    SettingsMismatchError
        Comparisons of one metric made with different settings (a per-run function that
        ignores the settings); the table and reports are written, the rest is not.
    ValidationError
        A run the state says was stored has no record.
    """
    out = Path(folder)
    settings = manifest.settings
    names = [m.name for m in settings.metrics]
    repeats, notes = _repeatability(manifest, state, store, shared)
    tallies: dict[tuple[str, str, str], AggregateTally] = {}
    has_metric: set[tuple[str, str, str]] = set()
    left_out: dict[tuple[str, str], dict[str, int]] = {}
    rankings = {name: RankingTally(metric=name, statistic=settings.statistic) for name in names}
    named = OutputsKey(shared)
    with (
        TableWriter(out, force=force) as table,
        open_atomic(out / "reports.json", force=force) as reports,
    ):
        reports.write(b"[")
        first = True
        for result, stored in _results(manifest, state, store, shared, named):
            table.write(rows_of(result, names))
            group = (result.algorithm, result.sequence)
            for metric in settings.metrics:
                key = (metric.name, *group)
                if key not in tallies:
                    tally = AggregateTally(
                        statistic=settings.statistic,
                        group={
                            "evaluation": metric.name,
                            "algorithm": group[0],
                            "sequence": group[1],
                        },
                    )
                    tallies[key] = tally
            if result.is_infrastructure:
                why = left_out.setdefault(group, {})
                why[result.error_type] = why.get(result.error_type, 0) + 1
                for ranking in rankings.values():
                    ranking.leave_out(result.error_type)
                continue
            report = result.run_report()
            for ranking in rankings.values():
                ranking.update(report)
            for metric in settings.metrics:
                key = (metric.name, *group)
                comparison = report.comparisons.get(metric.name)
                if comparison is not None:
                    has_metric.add(key)
                if not report.success:  # a failed run's reason; an evaluation's error type
                    tallies[key].fail(result.report.failure if result.report else result.error_type)
                elif comparison is not None:
                    tallies[key].update(comparison)
            if result.report is not None:
                repeat = repeats.get(result.name)
                # The stored JSON form is the report's to_dict (strict JSON already).
                form = (
                    stored
                    if repeat is None
                    else result.report.replace(repeatability=repeat).to_dict()
                )
                entry = {"run": result.name, "status": result.status, "report": form}
                text = json.dumps(
                    json_safe(entry) if repeat else entry, separators=(",", ":"), allow_nan=False
                )
                reports.write((b"" if first else b",") + text.encode())
                first = False
        reports.write(b"]\n")
    aggregates = [
        _aggregate(tally, metric.metric, left_out.get((algorithm, sequence), {}))
        for metric in settings.metrics
        for (metric_name, algorithm, sequence), tally in tallies.items()
        if metric_name == metric.name and (metric_name, algorithm, sequence) in has_metric
    ]
    write_atomic(out / "aggregates.json", dumps([a.to_dict() for a in aggregates]), force=force)
    computed = tuple((name, tally.compute()) for name, tally in rankings.items())
    entries = [
        {"evaluation": name, "ranking": ranking.to_dict() if ranking else None}
        for name, ranking in computed
    ]
    write_atomic(out / "ranking.json", dumps(entries), force=force)
    unique = tuple({repeat.runs: repeat for repeat in repeats.values()}.values())
    write_atomic(out / "repeatability.json", dumps([r.to_dict() for r in unique]), force=force)
    if table.note:
        notes.insert(0, table.note)
    return SweepOutputs(
        table=table.path,
        rankings=computed,
        repeatability=unique,
        notes=tuple(notes),
        key=named.hexdigest(),
    )


def _aggregate(tally: AggregateTally, metric: str, left_out: dict[str, int]) -> Aggregate:
    """Return the aggregate, named by its metric even with no success, saying what it lacks."""
    agg = tally.compute()
    if agg.n_succeeded == 0:
        agg = agg.replace(metric=metric)
    if left_out:
        reasons = ", ".join(f"{why} {n}" for why, n in left_out.items())
        n = sum(left_out.values())
        agg = agg.replace(notes=(*agg.notes, f"{n} runs not evaluated ({reasons}) left out"))
    return agg
