"""``run_report``: what one run did, success and accuracy kept apart; ``build_report`` for many.

A run succeeds when it produced a valid estimate up to the end of the sequence (within
``end_tolerance_s``) and reported no failure of its own (``meta.json`` ``failure`` or a
non-zero ``exit_code``). The failure reasons are short categories that aggregate well:
the run's ``failure`` text, ``"exit code N"``, ``"no estimate"``, ``"tracking lost, not
recovered"`` or ``"estimate ends early"``; details go to ``notes``.

Accuracy is computed only on the valid poses (outside tracking losses) and reported as
its own ``Comparison``: the guide's "report the overall success rate separately from the
error on evaluable intervals".
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs._version import __version__
from robot_msgs.compare.report import Report
from robot_msgs.compare.run_report import Latency, RunReport
from robot_msgs.errors import AlignmentError, AssociationError
from robot_msgs.report.accuracy import AccuracyResult, evaluate_accuracy
from robot_msgs.report.groups import summarise_groups
from robot_msgs.report.latency import latency_from_bag, latency_from_timing, rate_hz
from robot_msgs.report.ranking import rank_algorithms
from robot_msgs.report.repeatability import repeatability
from robot_msgs.report.resources import resources_from_log
from robot_msgs.report.settings import ReportSettings
from robot_msgs.report.tracking import coverage, losses_from_log, valid_mask

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from robot_msgs.compare.run_report import Repeatability, TrackingLoss
    from robot_msgs.report.runs import RunInputs
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import BoolArray, Float64Array

__all__ = ["ReportResult", "RunEvaluation", "build_report", "evaluate_run", "run_report"]

_EMPTY = np.empty(0)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunEvaluation:
    """A :class:`RunReport` and the per-sample series behind its plots (not serialised).

    ``accuracy`` is ``None`` without a reference; ``latency_s`` and ``processing_s``
    are the per-frame samples, shape ``(F,)`` seconds (empty without a timing log).
    """

    report: RunReport
    estimate: PoseTrajectory | None
    reference: PoseTrajectory | None
    valid: BoolArray
    accuracy: AccuracyResult | None
    latency_s: Float64Array = field(default_factory=lambda: _EMPTY)
    processing_s: Float64Array = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportResult:
    """A whole :class:`Report` and each run's :class:`RunEvaluation`, by run name."""

    report: Report
    runs: dict[str, RunEvaluation]


def _subset(traj: PoseTrajectory, keep: BoolArray) -> PoseTrajectory:
    """The poses of ``traj`` where ``keep`` is true."""
    return traj.replace(
        stamps_s=traj.stamps_s[keep],
        positions_xyz=traj.positions_xyz[keep],
        orientations_quat_xyzw=traj.orientations_quat_xyzw[keep],
    )


def _span(run: RunInputs, settings: ReportSettings) -> tuple[float, float, str]:
    """The sequence span on the estimate's clock, and where it comes from."""
    if run.reference is not None and len(run.reference) > 0:
        t = run.reference.stamps_s
        return float(t[0]) - settings.offset_s, float(t[-1]) - settings.offset_s, "reference"
    if run.timing is not None and run.timing.acquisition_s.size > 0:
        t = run.timing.acquisition_s
        return float(t[0]), float(t[-1]), "timing"
    return math.nan, math.nan, ""


def _judge(
    run: RunInputs,
    stamps: Float64Array,
    valid: BoolArray,
    losses: tuple[TrackingLoss, ...],
    start_s: float,
    end_s: float,
    settings: ReportSettings,
) -> tuple[str, list[str]]:
    """The failure category ('' for success) and notes explaining it."""
    meta = run.meta
    if meta.failure:
        return meta.failure, []
    if meta.exit_code not in (None, 0):
        return f"exit code {meta.exit_code}", []
    if stamps.size == 0:
        return "no estimate", [f"no pose in {run.estimate_path}"]
    if math.isnan(end_s):
        return "", [
            "end of the sequence unknown (no reference, no timing log): success not checked"
        ]
    last_valid = float(stamps[valid][-1]) if valid.any() else -math.inf
    if last_valid >= end_s - settings.end_tolerance_s:
        return "", []
    if losses and not losses[-1].recovered:
        lost = losses[-1].start_s - start_s
        note = f"tracking lost at {lost:.2f} s of {end_s - start_s:.2f} s and never recovered"
        return "tracking lost, not recovered", [note]
    note = f"last valid pose at {last_valid - start_s:.2f} s of {end_s - start_s:.2f} s"
    return "estimate ends early", [note]


def _latency(run: RunInputs) -> tuple[Latency | None, Float64Array, Float64Array]:
    if run.timing is not None:
        log = run.timing
        latency = latency_from_timing(log, clock=run.meta.clock)
        return (
            latency,
            log.available_s - log.acquisition_s,
            log.available_s - log.processing_start_s,
        )
    if run.bag is not None and run.latency_topic:
        return latency_from_bag(run.bag, run.latency_topic), _EMPTY, _EMPTY
    return None, _EMPTY, _EMPTY


def evaluate_run(
    run: RunInputs,
    settings: ReportSettings | None = None,
) -> RunEvaluation:
    """Evaluate one run: success, losses, coverage, accuracy, latency, rates, resources.

    Parameters
    ----------
    run : RunInputs
        From :func:`robot_msgs.report.load_run`.
    settings : ReportSettings, optional
        Evaluation settings (defaults: SE(3) alignment, nearest association within
        0.01 s, RPE over 1 s). ``run.align`` overrides ``settings.align``.

    Returns
    -------
    RunEvaluation
        The report and the series behind its plots.
    """
    settings = settings or ReportSettings()
    if run.align is not None and run.align != settings.align:
        settings = dataclasses.replace(settings, align=run.align)
    estimate = run.estimate
    stamps = estimate.stamps_s if estimate is not None else _EMPTY
    start_s, end_s, span_source = _span(run, settings)
    losses: tuple[TrackingLoss, ...] = ()
    if run.tracking is not None:
        known_end = (
            end_s if not math.isnan(end_s) else (float(stamps[-1]) if stamps.size else math.nan)
        )
        losses = losses_from_log(run.tracking, end_s=known_end)
    valid = valid_mask(stamps, losses)
    failure, notes = _judge(run, stamps, valid, losses, start_s, end_s, settings)
    cover = coverage(
        stamps, losses, start_s=start_s, end_s=end_s, coverage_gap_s=settings.coverage_gap_s
    )
    accuracy: AccuracyResult | None = None
    if run.reference is not None and estimate is not None and valid.any():
        try:
            accuracy = evaluate_accuracy(
                run.reference,
                _subset(estimate, valid),
                settings,
                estimate_name=str(run.estimate_path or ""),
                reference_name=str(run.reference_path or ""),
            )
        except (AssociationError, AlignmentError) as err:
            notes.append(f"accuracy not evaluated: {err}")
    if accuracy is not None and not valid.all():
        extra = f"evaluated on the {int(valid.sum())} valid poses of {valid.size} (losses excluded)"
        accuracy = accuracy.with_note(extra)
    if run.reference is None:
        notes.append("no reference: accuracy not evaluated (see repeatability)")
    latency, latency_s, processing_s = _latency(run)
    meta = run.meta
    report = RunReport(
        name=run.name,
        success=not failure,
        failure=failure,
        algorithm=meta.algorithm,
        version=meta.version,
        dataset=meta.dataset,
        sequence=meta.sequence,
        trial=meta.trial,
        hardware=meta.hardware,
        parameters=meta.parameters,
        software=meta.software,
        n_estimate=int(stamps.size),
        n_valid=int(valid.sum()),
        estimate_start_s=float(stamps[0]) if stamps.size else math.nan,
        estimate_end_s=float(stamps[-1]) if stamps.size else math.nan,
        sequence_start_s=start_s,
        sequence_end_s=end_s,
        span_source=span_source,
        losses=losses,
        coverage=cover,
        accuracy=accuracy.ape if accuracy is not None else None,
        rpe=accuracy.rpe if accuracy is not None else (),
        latency=latency,
        input_rate_hz=rate_hz(run.timing.acquisition_s) if run.timing is not None else math.nan,
        nominal_input_rate_hz=meta.input_rate_hz,
        output_rate_hz=rate_hz(stamps),
        resources=resources_from_log(run.resources) if run.resources is not None else None,
        notes=tuple(notes),
    )
    return RunEvaluation(
        report=report,
        estimate=estimate,
        reference=run.reference,
        valid=valid,
        accuracy=accuracy,
        latency_s=latency_s,
        processing_s=processing_s,
    )


def _repeatability_of(
    evaluations: Sequence[RunEvaluation], settings: ReportSettings
) -> Repeatability | None:
    """Repeatability of the successful runs among ``evaluations``, if two or more."""
    members = [
        (e.report.name, e.estimate)
        for e in evaluations
        if e.report.success and e.estimate is not None
    ]
    return repeatability(members, settings) if len(members) >= 2 else None


def run_report(
    run: RunInputs,
    settings: ReportSettings | None = None,
    *,
    repeats: Sequence[RunInputs] = (),
) -> RunReport:
    """The :class:`RunReport` of one run; ``repeats`` are other trials of the same sequence.

    Without a reference, ``accuracy`` is ``None`` and, when this run and at least one
    repeat succeeded, ``repeatability`` describes how the successful ones agree
    (labelled as not establishing accuracy).

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.report.runs import RunInputs, RunMeta
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(0.0, 10.01, 0.1)
    >>> traj = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((t.size, 3)),
    ...                       orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1)))
    >>> run = RunInputs(name="a", folder=None, meta=RunMeta(), estimate=traj, estimate_path=None)
    >>> report = run_report(run)
    >>> report.success, report.accuracy, report.repeatability
    (True, None, None)
    """
    settings = settings or ReportSettings()
    evaluation = evaluate_run(run, settings)
    if run.reference is not None or not evaluation.report.success or not repeats:
        return evaluation.report
    others = [evaluate_run(r, settings) for r in repeats if r is not run]
    repeat = _repeatability_of([evaluation, *others], settings)
    return evaluation.report.replace(repeatability=repeat)


def _group_key(run: RunInputs) -> tuple[str, str]:
    return (run.meta.algorithm, run.meta.sequence)


def build_report(
    runs: Sequence[RunInputs],
    settings: ReportSettings | None = None,
    *,
    force: bool = False,
    progress: Callable[[int, int, str], None] | None = None,
) -> ReportResult:
    """Evaluate many runs, summarise them per (algorithm, sequence) and rank the algorithms.

    Parameters
    ----------
    runs : sequence of RunInputs
        From :func:`robot_msgs.report.load_runs`.
    settings : ReportSettings, optional
        Evaluation settings.
    force : bool
        Rank and aggregate comparisons made with different settings anyway; the ranking
        and the report's notes say so.
    progress : callable, optional
        Called as ``progress(done, total, name)`` after each run.

    Raises
    ------
    SettingsMismatchError
        Comparisons with differing settings (a per-run ``align``), unless ``force``.
    """
    settings = settings or ReportSettings()
    evaluations: dict[str, RunEvaluation] = {}
    for done, run in enumerate(runs, start=1):
        evaluations[run.name] = evaluate_run(run, settings)
        if progress is not None:
            progress(done, len(runs), run.name)
    groups: dict[tuple[str, str], list[RunInputs]] = {}
    for run in runs:
        groups.setdefault(_group_key(run), []).append(run)
    for members in groups.values():
        if any(r.reference is not None for r in members):
            continue
        repeat = _repeatability_of([evaluations[r.name] for r in members], settings)
        if repeat is None:
            continue
        for r in members:
            old = evaluations[r.name]
            updated = old.report.replace(repeatability=repeat)
            evaluations[r.name] = dataclasses.replace(old, report=updated)
    reports = [e.report for e in evaluations.values()]
    notes: list[str] = []
    ranking = rank_algorithms(reports, force=force)
    if ranking is None:
        notes.append("no run had a reference: no accuracy ranking")
    elif ranking.forced:
        notes.extend(ranking.notes)
    no_reference = sum(1 for r in reports if r.accuracy is None and r.success)
    if no_reference and ranking is not None:
        notes.append(f"{no_reference} successful run(s) without accuracy are not ranked")
    report = Report(
        runs=tuple(reports),
        groups=summarise_groups(reports, force=force),
        ranking=ranking,
        settings=settings.as_dict(),
        tool_version=__version__,
        notes=tuple(notes),
    )
    return ReportResult(report=report, runs=evaluations)
