"""A finished sweep's folder read back as a :class:`~robot_msgs.compare.Report`.

``robot-msgs bench --out DIR`` stores every evaluated run's
:class:`~robot_msgs.compare.RunReport` in ``DIR/reports.json`` and the settings it used
in ``DIR/summary.json``. ``robot-msgs report DIR`` reads them back here and summarises
and ranks them as it does the runs it evaluates itself
(:func:`robot_msgs.report.build.assemble_report`), so the tables, JSON, CSV, LaTeX and
Markdown of a sweep of thousands of runs come without evaluating any again. The
figures need the runs' trajectories, which a sweep does not keep.

WHY here and not in :mod:`robot_msgs.report`: the folder's layout is the sweep's
(:mod:`robot_msgs.batch.outputs` writes it), and :mod:`robot_msgs.batch` already sits
above :mod:`robot_msgs.report`.

Both files are read as untrusted: bounded (:func:`~robot_msgs.batch.store.own_file_bytes`,
``max_depth``), every report checked as a message, every fault a
:class:`~robot_msgs.errors.FormatError` naming the file and the entry. ``summary.json``
names the ``reports.json`` it was written with by its SHA-256, so a reports file a later
sweep left (stopped between the two) is refused even with the same settings and runs.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs._version import __version__
from robot_msgs.batch.lock import LOCK_NAME, lock_owner
from robot_msgs.documents import json_kind, parse_json
from robot_msgs.errors import FormatError, RobotMsgsError, ValidationError
from robot_msgs.io.bounded import read_input
from robot_msgs.report.text import counted

if TYPE_CHECKING:
    from robot_msgs.compare.run_report import RunReport
    from robot_msgs.report.build import ReportResult
    from robot_msgs.runs.run_settings import RunSettings

__all__ = ["is_sweep_folder", "read_sweep"]

#: The files that make a folder a finished sweep's (written last: ``summary.json``).
SWEEP_FILES = ("summary.json", "reports.json")


def is_sweep_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a folder ``robot-msgs bench --out`` wrote its outputs to.

    Its ``summary.json`` beside ``reports.json`` or the records (``runs/`` of shard
    folders): a sweep stopped before its outputs is one too, for
    :func:`read_sweep` to say so; so is one stopped before its first
    ``summary.json`` (killed or interrupted), by the lock it left or the records it
    stored. A run root with a ``summary.json`` of its own beside ``runs/<algorithm>/...``
    is not.

    Examples
    --------
    >>> import tempfile
    >>> is_sweep_folder(tempfile.mkdtemp())
    False
    """
    folder = Path(path)
    summary, reports = (folder / name for name in SWEEP_FILES)
    runs = folder / "runs"
    if _there(summary):
        # A sweep stopped before its outputs leaves summary.json beside its records, and
        # what is there in place of a file is refused by read_sweep, not skipped.
        return _there(reports) or _record_store(runs)
    # Stopped before its first summary: walked as runs, it said "no runs found" (a review).
    if _there(folder / LOCK_NAME):
        return True
    from robot_msgs.batch.store import ResultStore  # noqa: PLC0415 - only without a summary

    return _record_store(runs) and ResultStore(folder).first() is not None


#: The folders of a sweep's record store: the first two hex digits of each run key.
_SHARD = re.compile("[0-9a-f]{2}")


def _record_store(runs: Path) -> bool:
    """Whether ``runs`` is a sweep's record store, not a user's runs (``runs/orb/MH_01/...``).

    WHY: a run root of the user's may hold a ``summary.json`` of its own beside its runs;
    taken for a sweep, it was refused ("expected the summary robot-msgs bench writes").
    The store holds shard folders only (:class:`~robot_msgs.batch.store.ResultStore`);
    its first 64 entries are looked at, so a folder of 10^6 runs is not listed.
    """
    try:
        with os.scandir(runs) as entries:
            for _, entry in zip(range(64), entries, strict=False):
                if not (_SHARD.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False)):
                    return False
    except OSError:  # not a folder
        return False
    return True


def _there(path: Path) -> bool:
    """Whether ``path`` is anything at all (a file, a FIFO, a link, even a broken one)."""
    return path.exists() or path.is_symlink()


def _unfinished(base: Path) -> str:
    """Say what a sweep stopped before its first ``summary.json`` left: records, its lock."""
    from robot_msgs.batch.store import ResultStore  # noqa: PLC0415 - as is_sweep_folder

    store = ResultStore(base)
    count = store.count() if _record_store(store.root) else 0
    first = store.first() if count else None
    if first is None:
        found = "no run record yet"
    else:
        name = _run_name(first)
        among = f" ({name} and {counted(count - 1, 'other')})" if name else ""
        found = f"{counted(count, 'run record')} in {store.root}{among}"
    owner = lock_owner(base)
    lock = f", its lock taken by {owner}" if owner else ""
    return (
        f"{base}: a bench output folder whose sweep wrote no outputs (no summary.json): "
        f"it was stopped (killed?) or is still running; {found}{lock}; "
        f"`robot-msgs bench ... --out {base} --resume` finishes a stopped one"
    )


def _run_name(record: Path) -> str:
    """Name the run a stored record is of (``""`` where the file, untrusted, does not say)."""
    try:
        data = parse_json(read_input(record, document=True), source=str(record))
        name = data["result"]["name"]
    except (RobotMsgsError, OSError, KeyError, TypeError):
        return ""
    return f"run {name[:80]}" if isinstance(name, str) else ""


def _document(file: Path, sha256: object = None) -> Any:
    """Read a JSON file bench wrote, bounded; refuse it if its bytes' digest is not ``sha256``."""
    if _there(file) and not file.is_file():  # a FIFO would block the open until a writer came
        msg = f"{file}: not a regular file (robot-msgs bench writes one there)"
        raise FormatError(msg)
    from robot_msgs.batch.store import own_file_bytes  # noqa: PLC0415 - as is_sweep_folder

    data = read_input(file, limit=own_file_bytes())  # not lowered by --max-bytes: bench's own
    if isinstance(sha256, str) and hashlib.sha256(data).hexdigest() != sha256:
        msg = (
            f"{file}: not the file summary.json beside it was written with (its SHA-256 "
            "differs): a later sweep there stopped between the two; run the same bench "
            "command with --resume to write both again"
        )
        raise FormatError(msg)
    return parse_json(data, source=str(file))


def _settings(
    file: Path, statistic: str | None, rank_failures: str | None
) -> tuple[RunSettings, dict[str, Any]]:
    from robot_msgs.runs.run_settings import RunSettings  # noqa: PLC0415

    summary = _document(file)
    if not isinstance(summary, dict) or not isinstance(summary.get("settings"), dict):
        msg = f"{file}: expected the summary robot-msgs bench writes, with its settings"
        raise FormatError(msg)
    try:
        settings = RunSettings.from_dict(summary["settings"])
        if statistic is not None:
            settings = settings.replace(statistic=statistic)
        if rank_failures is not None:
            settings = settings.replace(rank_failures=rank_failures)
    except ValidationError as err:
        msg = f"{file}: settings: {err}"
        raise FormatError(msg) from err
    return settings, summary


def _reports(file: Path, settings: RunSettings, sha256: object) -> list[RunReport]:
    from robot_msgs.compare.run_report import RunReport  # noqa: PLC0415

    entries = _document(file, sha256)
    if not isinstance(entries, list):
        msg = f"{file}: expected a list of run entries, got a JSON {json_kind(entries)}"
        raise FormatError(msg)
    reports = []
    first: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        form = entry.get("report") if isinstance(entry, dict) else None
        if not isinstance(form, dict):
            msg = f"{file}: entry {number}: expected an object with the run's report"
            raise FormatError(msg)
        where = f"{file}: entry {number} (run {str(entry.get('run'))[:80]!r})"
        try:
            report = RunReport.from_dict(form)
        except ValidationError as err:
            msg = f"{where}: {err}"
            raise FormatError(msg) from err
        _check_settings(report, settings, where)
        if report.name in first:  # bench writes each run once: a copied entry counts twice
            msg = f"{where}: the run of entry {first[report.name]} again"
            raise FormatError(msg)
        first[report.name] = number
        reports.append(report)
    return reports


def _check_settings(report: RunReport, settings: RunSettings, where: str) -> None:
    """Refuse a report whose comparisons were not made with the summary's settings.

    WHY: ``reports.json`` and ``summary.json`` are written one after the other; a folder
    copied together from two sweeps would otherwise be reported under settings its
    numbers were not computed with.
    """
    metrics = {metric.name: metric for metric in settings.metrics}
    for name, comparison in report.comparisons.items():
        metric = metrics.get(name)
        if metric is None or comparison.settings != settings.settings_of(metric):
            what = "a metric" if metric is None else "other settings"
            msg = (
                f"{where}: its {name[:80]!r} comparison was made with {what} than "
                "summary.json names: the two files are of different sweeps (remove "
                "reports.json and run the same bench command with --resume to write it again)"
            )
            raise FormatError(msg)


def _count(summary: dict[str, Any], key: str) -> int:
    value = summary.get(key)
    return value if type(value) is int and value >= 0 else 0


def _judged_note(revision: object) -> str:
    """Say that the stored reports were judged by other rules than today's, or ``""``.

    WHY: a sweep's reports are read back, not judged again; those of an older
    :data:`~robot_msgs.runs.evaluate.JUDGING_REVISION` (14: a KITTI run without its times
    said 'lost [s] 200' for 200 frames) were shown as today's, without a word.

    Examples
    --------
    >>> _judged_note(14)[:69]
    'the runs were judged under revision 14 of the judging rules, older th'
    """
    from robot_msgs.runs import evaluate  # noqa: PLC0415  (as the run keys read it)

    current = evaluate.JUDGING_REVISION
    if type(revision) is int and revision > current:
        return (
            f"the runs were judged under revision {revision} of the judging rules, newer "
            f"than this robot_msgs's {current}"
        )
    if type(revision) is int and revision == current:
        return ""
    said = (
        f"under revision {revision} of the judging rules, older than today's {current}"
        if type(revision) is int
        else f"under a revision of the judging rules summary.json does not name (today's "
        f"is {current})"
    )
    return (
        f"the runs were judged {said}: their success, losses and notes are those rules'; "
        "run the same bench command with --resume to judge them again"
    )


def read_sweep(
    folder: str | os.PathLike[str],
    *,
    statistic: str | None = None,
    rank_failures: str | None = None,
    force: bool = False,
    partial: bool = False,
) -> ReportResult:
    """Read a sweep's stored run reports and settings; summarise and rank them as ``report``.

    Parameters
    ----------
    folder : path-like
        What ``robot-msgs bench --out`` wrote (:func:`is_sweep_folder`).
    statistic : str, optional
        Rank by this :class:`~robot_msgs.compare.ErrorStats` field instead of the sweep's.
    rank_failures : {"apart", "worst"}, optional
        Rank failed runs by this rule instead of the sweep's
        (:attr:`~robot_msgs.runs.RunSettings.rank_failures`): a ranking rule, as
        ``statistic``, that no run's report depends on.
    force : bool
        Rank and aggregate comparisons made with different settings anyway.
    partial : bool
        Report a sweep some of whose runs have no report (they failed to evaluate, or
        were not evaluated), as :func:`~robot_msgs.report.build.build_report` reports
        the runs of a manifest that evaluate; without it such a sweep is refused.

    Returns
    -------
    ReportResult
        The :class:`~robot_msgs.compare.Report`, its runs in the sweep's order, a note
        saying how many runs have no report; no run evaluations (a sweep keeps no
        trajectories); ``failed`` and ``not_evaluated`` the runs with no report and why,
        as ``summary.json`` names them (those that failed to evaluate, those not
        evaluated; entries that are not text skipped: the file is untrusted).

    Raises
    ------
    FormatError
        A file missing, larger or deeper than the bounds, not JSON, or not what
        ``bench`` writes (the file and the entry named); a sweep that stopped before
        writing its outputs (its ``summary.json`` names none), or before its first
        ``summary.json`` (the records and the lock it left named); runs with no report,
        unless ``partial``.
    SettingsMismatchError
        Comparisons with differing settings, unless ``force``.
    """
    from robot_msgs.report.build import ReportResult, assemble_report  # noqa: PLC0415

    base = Path(folder)
    if not _there(base / "summary.json"):
        raise FormatError(_unfinished(base))
    settings, summary = _settings(base / "summary.json", statistic, rank_failures)
    if not isinstance(summary.get("outputs_key"), str):  # the last sweep wrote no outputs
        msg = (
            f"{base}: the last sweep there stopped before writing its outputs (summary.json "
            "names none), so reports.json is an earlier sweep's or half of one: "
            "`robot-msgs bench ... --out FOLDER --resume` finishes it"
        )
        raise FormatError(msg)
    # Folders of releases before the digest have none: checked by settings and count only.
    reports = _reports(base / "reports.json", settings, summary.get("reports_sha256"))
    evaluated = summary.get("n_ok")
    if type(evaluated) is int and evaluated != len(reports):
        msg = (
            f"{base / 'reports.json'}: {counted(len(reports), 'run report')} where "
            f"{base / 'summary.json'} counts {counted(evaluated, 'evaluated run')}: the two "
            "files are of "
            "different sweeps (remove reports.json and run the same bench command with "
            "--resume to write it again)"
        )
        raise FormatError(msg)
    runs = summary.get("n_runs")
    if type(runs) is not int or runs < len(reports):  # -1 was read as 0: no run missing
        msg = (
            f"{base / 'summary.json'}: `n_runs`: expected a count of at least the "
            f"{counted(len(reports), 'run report')} of reports.json, got {runs!r:.40}"
        )
        raise FormatError(msg)
    notes = []
    missing = runs - len(reports)
    if missing > 0:
        failed = _count(summary, "n_failed")
        unfinished = _count(summary, "n_crashed") + _count(summary, "n_lost")
        has = "has" if missing == 1 else "have"
        runs_said = counted(_count(summary, "n_runs"), "run")
        said = (
            f"{missing} of {runs_said} of the sweep {has} no report "
            f"({failed} failed to evaluate, {unfinished} not evaluated; "
            f"{base / 'summary.json'} names them)"
        )
        if not partial:  # as a manifest whose runs fail to evaluate, and as bench
            msg = f"{base}: {said}; `partial=True` reports the others"
            raise FormatError(msg)
        notes.append(said)
    version = summary.get("version")
    if isinstance(version, str) and version != __version__:
        notes.append(f"evaluated by robot_msgs {version[:40]}")
    judged = _judged_note(summary.get("judging"))
    if judged:
        notes.append(judged)
    named: dict[str, dict[str, str]] = {}  # failed to evaluate; not evaluated
    for kind in ("errors", "infrastructure"):
        entries = summary.get(kind)
        named[kind] = (
            {k: v for k, v in entries.items() if isinstance(v, str)}
            if isinstance(entries, dict)
            else {}
        )
    report = assemble_report(reports, settings, force=force, notes=notes)
    return ReportResult(
        report=report, runs={}, failed=named["errors"], not_evaluated=named["infrastructure"]
    )
