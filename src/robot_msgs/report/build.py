"""A whole report: every run evaluated, summarised per (algorithm, sequence), and ranked.

The per-run work is :func:`robot_msgs.runs.evaluate_run`, the same one ``robot-msgs
bench`` runs in its workers; this module reads the runs, evaluates them one by one,
judges again the runs without a reference against the span their sequence's runs show
(:mod:`robot_msgs.runs.spans`, as ``bench`` does before its outputs), adds the
repeatability of sequences without a reference and ranks the algorithms.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from robot_msgs._version import __version__
from robot_msgs.compare.report import Report
from robot_msgs.errors import DataWarning, RobotMsgsError
from robot_msgs.msg.repr import by_names
from robot_msgs.report.groups import summarise_groups
from robot_msgs.report.text import counted, listed
from robot_msgs.runs.evaluate import UNRATED_NOTE, RunEvaluation, evaluate_run, metric_left_out
from robot_msgs.runs.load import load_run
from robot_msgs.runs.rank import rank_algorithms
from robot_msgs.runs.repeats import group_repeatability
from robot_msgs.runs.spans import (
    SHOWN_BY_RUNS,
    sequence_spans,
    shown_by_runs_note,
    unmeasured_in_space,
    unmeasured_in_space_note,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from robot_msgs.compare.run_report import RunReport
    from robot_msgs.runs.load import TrajectoryCache
    from robot_msgs.runs.manifest import Manifest
    from robot_msgs.runs.run_settings import RunSettings
    from robot_msgs.runs.spec import RunSpec

__all__ = ["ReportResult", "assemble_report", "build_report"]

#: Runs that failed to evaluate named in the report's note, at most (the warnings name all).
_NAMED = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportResult:
    """A whole :class:`Report` and each run's :class:`RunEvaluation`, by run name.

    ``failed`` holds the runs left out because they failed to evaluate (only with
    ``partial``): run name -> the error's type and text. ``not_evaluated`` holds a
    sweep's runs that were never evaluated (their worker died, the scheduler was lost),
    named as ``bench`` names them.
    """

    report: Report
    runs: dict[str, RunEvaluation]
    failed: dict[str, str] = field(default_factory=dict)
    not_evaluated: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        """Return what it holds by counts and run names, not every field of every run.

        WHY: ``build_report(load_runs("example:runs/runs.toml"))`` as a notebook cell's
        last line printed 346,829 characters (every run's report, comparisons, settings
        and series summaries, twice); ``result.report`` and ``result.runs[name]`` show them.
        """
        report = self.report
        ranked = "ranked" if report.ranking is not None else "not ranked"
        parts = [
            (
                f"report=<Report: {counted(len(report.runs), 'run')}, "
                f"{counted(len(report.groups), 'group')}, {ranked}>"
            ),
            *(
                f"{name}={by_names(list(runs), 'run', empty='{}')}"
                for name, runs in (
                    ("runs", self.runs),
                    ("failed", self.failed),
                    ("not_evaluated", self.not_evaluated),
                )
            ),
        ]
        return f"ReportResult({', '.join(parts)})"


def _left_out_notes(reports: Sequence[RunReport]) -> list[str]:
    """Say each metric left out of runs, and why, once for the runs it was left out of alike.

    And the runs stamped by frame index without a stated rate (:data:`UNRATED_NOTE`).

    WHY: only the runs' notes said it, which the text report does not show: KITTI runs
    read without their times showed ``RPE RMSE [m] -`` with no word why (a review), and
    an alignment window that holds none of a run's poses left ``APE RMSE [m] -`` as bare.
    """
    runs: dict[str, list[str]] = {}
    for report in reports:
        for note in report.notes:
            if metric_left_out(note) is not None:
                runs.setdefault(note, []).append(report.name)
    said = []
    for note, names in runs.items():
        metric, how, why = metric_left_out(note) or ("", "", "")
        said.append(f"{metric} {how} in {_listed(names)}: {why}")
    # Said alike: a success or 'estimate ends early' and a coverage on frames counted
    # one a second showed in the text report without a word why (a review).
    unrated = [report.name for report in reports if UNRATED_NOTE in report.notes]
    if unrated:
        said.append(f"{_listed(unrated)}: {UNRATED_NOTE}")
    return said


def _listed(names: Sequence[str]) -> str:
    """Say how many runs and the first three: ``2 runs (a, b)``."""
    shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    return f"{counted(len(names), 'run')} ({shown})"


def _in_run(err: RobotMsgsError | OSError, name: str, source: str) -> RobotMsgsError | OSError:
    """Return ``err`` naming the run it stopped at (its error names only the file).

    ``report`` on a manifest whose run read ``/dev/zero`` said "/dev/zero: is a character
    device" and not which entry named it; the same class is raised, so callers catch it
    as before. An ``OSError`` names its file already, and is kept as it is. An error that
    begins with the run's entry (a ``[[runs]]`` entry's missing folder) is not given it
    again: "run X (m.toml [[runs]] #2): m.toml [[runs]] #2: ..." said it twice.
    """
    if not isinstance(err, RobotMsgsError):
        return err
    where = f" ({source})" if source and not str(err).startswith(f"{source}:") else ""
    return err.within(f"run {name}{where}: ", "; `partial=True` reports the others")


def build_report(
    manifest: Manifest,
    *,
    force: bool = False,
    partial: bool = False,
    progress: Callable[[str, bool], None] | None = None,
    evidence: bool = True,
) -> ReportResult:
    """Read and evaluate every run of ``manifest``, summarise the groups, rank the algorithms.

    Parameters
    ----------
    manifest : Manifest
        The runs and their settings (:func:`robot_msgs.runs.load_runs`).
    force : bool
        Rank and aggregate comparisons made with different settings anyway (results
        merged from elsewhere); the ranking and the notes say so.
    partial : bool
        Leave out the runs that cannot be evaluated (a file unreadable, data a metric
        refuses) and report the others, as ``robot-msgs bench --allow-partial`` does; a
        note says how many and the first, :attr:`ReportResult.failed` names them all.
        Without it the first such run stops the report.
    progress : callable, optional
        Called as ``progress(name, failed)`` after each run.
    evidence : bool
        Keep each run's evidence in :attr:`ReportResult.runs` (its per-pose series, the
        aligned estimate, the trajectories: what the figures draw). ``False`` keeps the
        reports and only the estimates the repeatability of runs without a reference
        reads. WHY: a text report of 2,010 runs held every run's series to its end
        (peak 1.09 GB).

    Raises
    ------
    FormatError
        A run's file cannot be read (file, line and field named), unless ``partial``.
    ValidationError
        A run's data refused by a metric (NEES without covariances), the run named,
        unless ``partial``.
    SettingsMismatchError
        Comparisons with differing settings, unless ``force``.
    """
    settings = manifest.settings
    cache: TrajectoryCache = {}
    evaluations: dict[str, RunEvaluation] = {}
    failed: dict[str, str] = {}

    def evaluate(spec: RunSpec, span: tuple[float, float] | None = None) -> None:
        """Read and evaluate one run into ``evaluations``, or (``partial``) into ``failed``."""
        try:
            with warnings.catch_warnings():
                if span is not None:  # read again: what its files are was said the first time
                    # (a timing.csv linked to a device gave its WARNING twice; a review)
                    warnings.simplefilter("ignore", DataWarning)
                run = load_run(spec, cache=cache, reading=settings.reading)
            done = evaluate_run(run, settings, sequence_span=span)
            if not evidence:
                kept = None if done.report.has_reference else done.estimate
                done = dataclasses.replace(done, estimate=kept, reference=None, results={})
            evaluations[spec.name] = done
        except (RobotMsgsError, OSError) as err:  # what bench counts as failed to evaluate
            if not partial:
                raise _in_run(err, spec.name, spec.source) from err
            failed[spec.name] = f"{type(err).__name__}: {err}"
            if span is not None:  # read again: its files changed since the first reading
                del evaluations[spec.name]

    for spec in manifest.runs:
        evaluate(spec)
        if progress is not None:
            progress(spec.name, spec.name in failed or not evaluations[spec.name].report.success)
    specs = {spec.name: spec for spec in manifest.runs}
    spans = sequence_spans(e.report for e in evaluations.values())
    for name, span in spans.items():  # runs without a reference: read again, no metric
        evaluate(specs[name], span)
    reports = [e.report for e in evaluations.values()]
    estimates = {name: e.estimate for name, e in evaluations.items()}
    repeats, notes = group_repeatability(reports, estimates, settings.evaluation)
    for name, repeat in repeats.items():
        old = evaluations[name]
        evaluations[name] = dataclasses.replace(
            old, report=old.report.replace(repeatability=repeat)
        )
    if failed:
        # Each named (up to _NAMED): "the first, and 3 more" left the page and the JSON
        # without the names of the others (a report of 192 runs, 4 failing).
        first = [f"{name}: {error[:300]}" for name, error in list(failed.items())[: _NAMED + 1]]
        has = "has no report: it" if len(failed) == 1 else "have no report: they"
        notes.append(
            f"{len(failed)} of {counted(len(manifest.runs), 'run')} {has} failed to "
            f"evaluate ({listed(first, _NAMED, len(failed), sep='; ')})"
        )
    reports = [e.report for e in evaluations.values()]
    report = assemble_report(reports, settings, force=force, notes=notes)
    return ReportResult(report=report, runs=evaluations, failed=failed)


def assemble_report(
    reports: Sequence[RunReport],
    settings: RunSettings,
    *,
    force: bool = False,
    notes: Sequence[str] = (),
) -> Report:
    """Summarise evaluated runs per (algorithm, sequence) and rank the algorithms.

    ``reports`` are the runs' reports, repeatability included; ``settings`` those they
    were evaluated with (its ``statistic`` ranks them and is what the groups' accuracy
    distributes); ``force`` as for
    :func:`build_report`; ``notes`` go first among the report's notes.
    :func:`build_report` ends here, and a ``robot-msgs bench`` folder is reported from
    its stored reports here too, without evaluating anything again.

    Raises
    ------
    SettingsMismatchError
        Comparisons with differing settings, unless ``force``.
    """
    said = list(notes)
    ranking = rank_algorithms(
        reports, statistic=settings.statistic, force=force, failures=settings.rank_failures
    )
    if ranking is None:
        # A run with a reference whose every metric was skipped (an RPE delta that gave
        # no pair) has none either: "no run had a reference" was false of it.
        said.append(
            "no run has an accuracy figure (no reference, or every metric skipped: the runs' "
            "notes say why): no accuracy ranking"
        )
    elif ranking.forced:
        said.extend(ranking.notes)
    said.extend(_left_out_notes(reports))
    shown = sum(1 for r in reports if r.span_source == SHOWN_BY_RUNS)
    if shown:
        said.append(shown_by_runs_note(shown, in_space=settings.evaluation.sync == "spatial"))
    unmeasured = sum(map(unmeasured_in_space, reports))
    if unmeasured and settings.evaluation.sync == "spatial":
        said.append(unmeasured_in_space_note(unmeasured))
    no_reference = sum(1 for r in reports if r.accuracy is None and r.success)
    if no_reference and ranking is not None:
        said.append(f"{no_reference} successful run(s) without accuracy are not ranked")
    return Report(
        runs=tuple(reports),
        groups=summarise_groups(reports, statistic=settings.statistic, force=force),
        ranking=ranking,
        settings=settings.record(),
        tool_version=__version__,
        notes=tuple(said),
    )
