"""Evaluate one run: success apart from accuracy, losses, coverage, every metric, latency.

The one per-run evaluation of the package: ``robot-msgs report`` calls it for each run,
``robot-msgs bench`` in its workers, so both give the same numbers for the same settings.

A run succeeds when it produced a valid estimate up to the end of the sequence (within
``end_tolerance_s``) that covers at least ``min_coverage`` of it (default half), and
reported no failure of its own (``meta.json`` ``failure`` or a non-zero ``exit_code``).
A run stamped by frame index (KITTI without its times) has both limits, in seconds,
counted in frames at its stated ``input_rate_hz``; without one, one frame a second.
The sequence spans its reference; without one, its timing log, or the span the other
runs of its sequence show when given (``sequence_span``, :mod:`robot_msgs.runs.spans`).
Matched in space (``sync='spatial'``) the reference's stamps are on a clock no offset
relates to the estimate's: they give no span, and the time range cuts the reference's
poses only, as the evaluation does; coverage and the end are judged on the run's own
clock (its timing log) or, without one, not measured (the doctor's "not checked (in
space)").
The failure reasons are short categories that aggregate well: the run's ``failure``
text, ``"exit code N"``, ``"no estimate"``, ``"tracking lost, not recovered"``,
``"estimate ends early"``, ``"coverage too low"`` or ``"time range outside the sequence"``
(``t_start_s``/``t_end_s`` leave nothing of it); details go to ``notes``. The time range
cuts the span, the losses, the coverage, the rates and the timing log's latency alike; one that
leaves nothing of the sequence leaves no loss, no coverage (NaN) and a latency of no
frame (as a range that meets the sequence but holds none of them). A run without a span
(no reference, no timing log) has its losses cut to the range itself and its poses within
it judged; a range that holds none of its estimate fails it as one outside the sequence.

Every metric of the settings is computed only on the valid poses (outside tracking
losses), each as its own ``Comparison``: the guide's "report the overall success rate
separately from the error on evaluable intervals". Metrics that share their evaluation
settings are computed by one :func:`~robot_msgs.evaluation.evaluate` (one association
and alignment).
"""

from __future__ import annotations

import dataclasses
import math
import re
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

import numpy as np

from robot_msgs.compare.run_report import RunReport
from robot_msgs.errors import AlignmentError, AssociationError, ValidationError
from robot_msgs.evaluation.consistency import NEES_DOF
from robot_msgs.evaluation.entry import evaluate
from robot_msgs.runs.latency import latency_from_bag, latency_from_timing, rate_hz
from robot_msgs.runs.losses import (
    coverage,
    keep_poses,
    loss_bounds,
    losses_from_log,
    valid_mask,
)
from robot_msgs.runs.resources import resources_from_log
from robot_msgs.runs.run_settings import RunSettings
from robot_msgs.runs.spans import SHOWN_BY_RUNS

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.run_report import Latency, TrackingLoss
    from robot_msgs.evaluation.entry import Metric
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.runs.load import RunInputs
    from robot_msgs.runs.run_settings import MetricSpec
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import BoolArray, Float64Array

__all__ = [
    "JUDGING_REVISION",
    "UNRATED_NOTE",
    "RunEvaluation",
    "evaluate_run",
    "metric_left_out",
]

#: Revision of the judging rules of :func:`evaluate_run` (success, failure categories and
#: notes, what losses, coverage, latency and rates cover, the metrics' numbers), part of
#: every bench run key (:func:`robot_msgs.batch.inputs.settings_identity`). Bump it in the
#: commit that changes how a run is judged, whatever the package version: ``bench
#: --resume`` keyed its records by the version alone and reused reports judged by the old
#: rules without a word. Records of another revision are found under no key of today's
#: sweep, so every run is computed again (the old records are left, as records of runs
#: no longer in a manifest are). 1: the rules as of the time range that leaves nothing of
#: a sequence leaving no loss, coverage or latency; 2: the note of a time range over a run
#: without a span says the range as given (it said 'within nan .. nan s'); 3: a time range
#: over a run without a span cuts its losses to the range and judges the poses within it
#: (one that holds none of the estimate fails it as 'time range outside the sequence');
#: 4: one between two of its poses without a loss fails nothing (it said 'estimate ends
#: early', its one pose in tracking losses, of no pose and no loss); 5: the output rate
#: is the estimate's within the time range, as the input rate is the timing log's (it was
#: the whole run's: 15 Hz beside 10 Hz processed within --t-start 5); 6: losses that
#: do not meet the sequence are left out without a time range too (one wholly before the
#: reference was counted, with 0 s lost); 7: 'coverage too low' says the coverage and the
#: bound with the decimals that tell them apart (it said 'cover 50%, under the 50%'); 8: a
#: time range wholly inside a tracking loss evaluates no metric and says so (each metric
#: said 'raise max_diff_s'; with interpolation, poses across the loss were compared); 9:
#: logs cut short by a run that stopped are read as written (an empty one as none), and
#: the run judged: it failed to evaluate, a stored failure left out of the success rate;
#: 10: a range that ends where a loss recovers evaluates the pose tracked there (8 said
#: no pose in it was tracked); 11: only a run that reported stopping (a failure, a non-zero
#: exit code) is read on its cut logs; another's are refused again (10 judged it on them);
#: 12: matched in space, the reference's span and the time range (on its clock) judge no
#: stamp of the run (an estimate 5000 s late, its APE computed, failed 'coverage too low');
#: 13: in space the time range cuts a run without a reference on its estimate's clock, as
#: in time (12 ignored it there); 14: a run stamped by frame index (KITTI without its
#: times) has no output rate (it was 1.0 Hz, one pose a frame), and its notes say frames
#: where they said seconds (an RPE delta without pairs, an alignment window); 15: such a
#: run's report records it (``stamps_are_frames``): its losses count frames (its 200
#: frames lost were '200.0 s'), and so does its note of a loss never recovered; 16: such
#: a run's end tolerance and coverage gap count frames at its stated input_rate_hz (1 s
#: was one frame: 5 frames missing at the end failed it), and are not checked without one;
#: 17: that note names the frames ('frame 30 of frames 0 .. 40', where it said 'of 40 frames');
#: 18: without a stated rate they count one frame a second, as before 16 (unchecked, a
#: KITTI estimate cut at half its frames was a success), and the note says so.
#: 19: an empty (0-byte) tracking or resource log is no event or no sample (it failed
#: the run to evaluate); a log that is a pipe, a device or a folder fails it (it was
#: passed over, the run's latency missing); 20: the notes of a run with a 0-byte tracking
#: log say so (it read as no loss, unsaid); 21: a log that is a symbolic link to nothing
#: fails the run, as a pipe does (it read as no log, unsaid).
#: 22: a run's report has the path smoothness of its valid poses in the time range.
#: 23: a run's exit code 124 is said to be `timeout`'s, 128 + n a signal's, as a shell says.
#: 24: the note of a run whose estimate file is 0 bytes says it is empty (it said 'no pose in').
#: 25: path smoothness is of each tracked stretch, no step across a loss (the jump over a
#: loss was one step: 0.651 .. 0.695 beside 0.620 unbroken), and the time range's note
#: says it cuts path smoothness too, or in space that it is the whole run's; frames
#: missing from the timing log while tracking was lost are the loss's, not dropped frames
#: (counted in both), and the latency's notes say how many; the notes of a run with a
#: 0-byte resources.csv say so (it read as no sample, unsaid).
#: 26: the frames a timing log skips after a loss's start are the loss's, not dropped, where
#: the log's row at the start is the frame tracking was lost on (a row there read as logged
#: through the loss), a loss from the log's first frame (initialising) too, and a loss the
#: sequence does not meet (initialising before the reference).
JUDGING_REVISION = 26

#: The note of a run stamped by frame index that states no rate (:func:`_limits`); the
#: report says it across runs, as the text report prints no run's notes.
UNRATED_NOTE = (
    "the estimate's stamps are frame indices (KITTI read without its times) and the run "
    "states no input_rate_hz: its end and coverage limits in seconds (`end_tolerance_s=`, "
    "`coverage_gap_s=`) are counted one frame a second, stricter than a camera's rate; state "
    "the nominal rate (input_rate_hz in meta.json or the manifest) or give the times files"
)

_EMPTY = np.empty(0)
_NOTHING = (math.inf, -math.inf)  # a time range no loss and no frame meets


@dataclass(frozen=True, slots=True, kw_only=True)
class RunEvaluation:
    """A :class:`RunReport` and the evidence behind it (not serialised).

    ``results`` holds each metric's :class:`~robot_msgs.compare.EvaluationResult` (the
    per-pose series, the aligned estimate) by metric name; ``valid`` is the estimate's
    per-pose validity ``(N,)``; ``latency_s`` and ``processing_s`` are the per-frame
    samples, shape ``(F,)`` seconds (empty without a timing log).
    """

    report: RunReport
    estimate: PoseTrajectory | None
    reference: PoseTrajectory | None
    valid: BoolArray
    results: Mapping[str, EvaluationResult] = field(default_factory=dict)
    latency_s: Float64Array = field(default_factory=lambda: _EMPTY)
    processing_s: Float64Array = field(default_factory=lambda: _EMPTY)

    @property
    def primary(self) -> EvaluationResult | None:
        """The first metric's result (the one rankings use), or ``None`` without any."""
        return next(iter(self.results.values()), None)

    @property
    def rpe_results(self) -> dict[str, EvaluationResult]:
        """The RPE results by metric name, in the settings' order."""
        return {name: r for name, r in self.results.items() if r.metric == "rpe"}


def _span(run: RunInputs, settings: EvaluationSettings) -> tuple[float, float, str]:
    """Return the sequence span on the estimate's clock, and where it comes from.

    The reference's span moved by the offset (the settings' time range is cut from it
    by the caller). Not matched in space (``sync='spatial'``): no offset relates the two
    clocks there, and the reference's span said 0 % coverage of an estimate whose clock
    is 5000 s late, its APE computed (a review).
    """
    if run.reference is not None and len(run.reference) > 0 and settings.sync != "spatial":
        t = run.reference.stamps_s
        start, end = float(t[0]), float(t[-1])
        return start - settings.offset_s, end - settings.offset_s, "reference"
    if run.timing is not None and run.timing.acquisition_s.size > 0:
        t = run.timing.acquisition_s
        return float(t[0]), float(t[-1]), "timing"
    return math.nan, math.nan, ""


def _window(run: RunInputs, settings: EvaluationSettings) -> tuple[float, float] | None:
    """Return the settings' time range on the estimate's clock, or ``None`` without one.

    ``None`` matched in space too: the range is on the reference's clock and cuts its
    poses only (:func:`~robot_msgs.evaluation.prepare`); the estimate's clock is not it.
    A run without a reference is matched to nothing: its range is on its estimate's
    clock, in space as in time (in space it was ignored, said to cut 'the reference's
    poses only' of a run without one; a review).
    """
    if settings.t_start_s is None and settings.t_end_s is None:
        return None
    if settings.sync == "spatial" and run.reference is not None:
        return None
    low = -math.inf if settings.t_start_s is None else settings.t_start_s
    high = math.inf if settings.t_end_s is None else settings.t_end_s
    return low - settings.offset_s, high - settings.offset_s


def _in_window(
    run: RunInputs,
    losses: tuple[TrackingLoss, ...],
    window: tuple[float, float],
    *,
    clip: bool = False,
) -> tuple[tuple[TrackingLoss, ...], RunInputs]:
    """Return the losses that meet ``window`` and the run with its timing log cut to it.

    A loss partly inside keeps its logged times (as :attr:`RunReport.lost_s` cuts it to
    the span), or with ``clip`` (a run without a span, which ``lost_s`` cannot cut by) is
    cut to the window itself; a frame counts when it was acquired inside the window.
    """
    low, high = window
    kept = tuple(loss for loss in losses if loss.end_s > low and loss.start_s <= high)
    if clip:
        kept = tuple(
            dataclasses.replace(loss, start_s=max(loss.start_s, low), end_s=min(loss.end_s, high))
            for loss in kept
        )
    log = run.timing
    if log is None:
        return kept, run
    inside = (log.acquisition_s >= low) & (log.acquisition_s <= high)
    cut = dataclasses.replace(
        log,
        frame=log.frame[inside],
        acquisition_s=log.acquisition_s[inside],
        processing_start_s=log.processing_start_s[inside],
        available_s=log.available_s[inside],
    )
    return kept, dataclasses.replace(run, timing=cut)


def _missed_note(
    settings: EvaluationSettings, span: tuple[float, float], *, spanless: bool = False
) -> str:
    """Say that the settings' time range leaves nothing of the sequence ``span``.

    ``spanless``: ``span`` is the estimate's own, of a run without a span.
    """
    given = " and ".join(
        f"{name} {value:.15g} s"  # not :g: Unix stamps read "1.30503e+09" (a review)
        for name, value in (("t_start", settings.t_start_s), ("t_end", settings.t_end_s))
        if value is not None
    )
    shift = settings.offset_s
    what, why = ("the estimate", " (no reference or timing log gives the sequence's span)")
    if not spanless:
        what, why = ("the sequence", "")
    return (
        f"the time range ({given}) leaves nothing of {what}, "
        f"{span[0] + shift:.2f} .. {span[1] + shift:.2f} s on the reference's clock{why}"
    )


def _shown_note(
    run: RunInputs,
    own: tuple[float, float, str],
    shown: tuple[float, float],
    settings: EvaluationSettings,
) -> str:
    """Say the span of the sequence its runs show, which the run is judged against, and its own."""
    start, end, source = own
    mine = "it has no reference or timing log of its own"
    if source:
        mine = f"its own timing log spans {end - start:.2f} s"
    elif run.reference is not None and settings.sync == "spatial":
        mine = "matched in space, its reference is on another clock, and it has no timing log"
    return (
        f"judged against the span of {run.spec.sequence or 'its sequence'} that the other "
        f"runs show, {shown[1] - shown[0]:.2f} s ({mine})"
    )


def _no_pose(path: str) -> str:
    """Say why the estimate ``path`` (a file, a bag folder, ``example:...``) gave no pose.

    A typo in a manifest, a run that wrote nothing and a file of comments alone read
    alike ('no pose in'): say which.
    """
    from robot_msgs.io.examples import resolve_path  # noqa: PLC0415

    try:
        found = resolve_path(path)
        there, empty = found.exists(), found.is_file() and found.stat().st_size == 0
    except (OSError, ValueError):
        there = empty = False
    if not there:
        return f"{path} does not exist (the run wrote nothing, or the path is mistyped)"
    if empty:
        return f"{path} is empty (0 bytes: the run wrote nothing)"
    return f"no pose in {path}"


def _judge(
    run: RunInputs,
    stamps: Float64Array,
    valid: BoolArray,
    losses: tuple[TrackingLoss, ...],
    span: tuple[float, float],
    settings: RunSettings,
    cover: float,
    tolerance: float,
    inside: BoolArray | None = None,
) -> tuple[str, list[str]]:
    """Return the failure category ('' for success) and notes explaining it.

    ``tolerance``: the end tolerance in the stamps' unit (:func:`_limits`). ``inside``:
    which poses a time range holds, for a run without a span (NaN ends), whose poses
    outside it are not judged.
    """
    reported = run.spec.meta.reported_failure
    if reported:
        return reported, []
    if stamps.size == 0:
        given = run.spec.estimate
        why = _no_pose(given) if given else "no pose in the run (no estimate file)"
        return "no estimate", [why]
    start_s, end_s = span
    if math.isnan(end_s):
        # The run's own log still says it lost tracking for good: a failure, whatever the
        # end (it was a success when neither reference nor timing log was there; a review).
        if losses and not losses[-1].recovered:
            note = "tracking lost and never recovered (the end of the sequence is unknown)"
            return "tracking lost, not recovered", [note]
        # Losses over every pose: it was a success with n_valid 0 (a review); over every
        # pose of a time range, a success by the valid poses outside it. A range between
        # two poses without a loss holds none and fails nothing, as with a span: it was
        # said 'its one pose falls in tracking losses' of no pose and no loss (a review).
        gap = inside is not None and not inside.any() and not losses
        if not gap and not (valid if inside is None else valid & inside).any():
            if inside is None:
                note = f"no valid pose: the {stamps.size} poses all fall in tracking losses"
            else:
                n = int(inside.sum())
                held = f"the {n} poses within it all fall" if n > 1 else "its one pose falls"
                held = f"{held} in tracking losses" if n else "it holds no pose, tracking lost"
                note = f"no valid pose in the time range: {held}"
            return "estimate ends early", [note]
        note = "end of the sequence unknown (no reference, no timing log): success not checked"
        if run.reference is not None and settings.evaluation.sync == "spatial":
            note = (
                "end of the sequence and coverage not measured (in space): the reference's "
                "clock is not the estimate's and no timing log gives the run's span; "
                "success not checked"
            )
        return "", [note]
    last_valid = float(stamps[valid][-1]) if valid.any() else -math.inf
    lost_for_good = bool(losses) and not losses[-1].recovered
    if last_valid >= end_s - tolerance:
        if cover < settings.min_coverage:  # NaN (no span) is never below
            # As many decimals as tell the two apart: a coverage of 0.4995 was said as
            # 'cover 50% of the sequence, under the 50% success needs' (a hunt).
            low, need = cover, settings.min_coverage
            places = next(n for n in range(17) if f"{low:.{n}%}" != f"{need:.{n}%}" or n == 16)
            note = (
                f"the valid poses cover {low:.{places}%} of the sequence, under the "
                f"{need:.{places}%} success needs (`min_coverage=`)"
            )
            return "coverage too low", [note]
        return "", []
    # Frame indices (KITTI without its times) are said as frames: 'lost at 30.00 s of 40.00 s'.
    frames = run.estimate is not None and run.estimate.stamps_are_frames
    if lost_for_good:
        lost = losses[-1].start_s - start_s
        note = (
            f"tracking lost at {_at(losses[-1].start_s, span, frames=frames)} and never recovered"
        )
        if lost < 0:  # 'lost at -2.00 s of 5.00 s' (before a --t-start; a review)
            before = f"{-lost:.0f} frames" if frames else f"{-lost:.2f} s"
            note = f"tracking lost {before} before the sequence's start and never recovered"
        return "tracking lost, not recovered", [note]
    if not valid.any():  # no last valid pose to say: it said 'last valid pose at -inf s'
        note = f"no valid pose: the {stamps.size} poses all fall in tracking losses"
        return "estimate ends early", [note]
    note = f"last valid pose at {_at(last_valid, span, frames=frames)}"
    return "estimate ends early", [note]


def _unrated(run: RunInputs) -> bool:
    """Say whether the estimate's stamps are frame indices and the run states no rate."""
    rate = run.spec.meta.input_rate_hz  # NaN when not stated
    frames = run.estimate is not None and run.estimate.stamps_are_frames
    return frames and not (math.isfinite(rate) and rate > 0)


def _limits(run: RunInputs, settings: RunSettings) -> tuple[float, float]:
    """Return the coverage gap and the end tolerance in the unit of the estimate's stamps.

    Seconds on a clock. Frame indices (KITTI read without its times) count frames: a
    limit of ``s`` seconds is ``s * input_rate_hz`` frames at the run's stated nominal
    rate. They counted 1 s as one frame: S-PTAM on KITTI 00 without its last 5 frames
    (0.5 s at 10 Hz) failed 'estimate ends early', and passed with its times (a hunt).

    Without a stated rate (:func:`_unrated`), ``s`` frames, one a second: slower than a
    camera's rate (KITTI's is 10 Hz), so a run that passes would pass at its own. WHY
    not unchecked (as an RPE delta in seconds is skipped on frames): a limit left out
    passes the run, and a KITTI 00 estimate cut at half its frames was a success (a
    review); a run short of a few frames fails instead, and its note says what to give.
    """
    gap, tolerance = settings.coverage_gap_s, settings.end_tolerance_s
    if run.estimate is None or not run.estimate.stamps_are_frames or _unrated(run):
        return gap, tolerance
    rate = run.spec.meta.input_rate_hz
    return gap * rate, tolerance * rate


def _at(stamp: float, span: tuple[float, float], *, frames: bool) -> str:
    """Say where a stamp falls in the sequence: ``2.50 s of 40.00 s``, in seconds from its start.

    On frame indices, the frames themselves: ``frame 30 of frames 0 .. 40``. WHY: said as a
    duration, 'frame 30 of 40 frames', frames 0 .. 40 are 41 (KITTI 00's 4541 were
    '4540 frames'), and from a time range's start, frame 20 of 10 .. 40 is frame 30 (a review).
    """
    start, end = span
    if frames:
        return f"frame {stamp:.0f} of frames {start:.0f} .. {end:.0f}"
    return f"{stamp - start:.2f} s of {end - start:.2f} s"


def _latency(
    run: RunInputs, losses: tuple[TrackingLoss, ...]
) -> tuple[Latency | None, Float64Array, Float64Array]:
    meta = run.spec.meta
    if run.timing is not None:
        log = run.timing
        latency = latency_from_timing(log, clock=meta.clock, lost=loss_bounds(losses))
        return (
            latency,
            log.available_s - log.acquisition_s,
            log.available_s - log.processing_start_s,
        )
    if meta.bag is not None and meta.latency_topic:
        from pathlib import Path  # noqa: PLC0415

        return latency_from_bag(Path(meta.bag), meta.latency_topic), _EMPTY, _EMPTY
    return None, _EMPTY, _EMPTY


def _metrics(
    reference: PoseTrajectory, estimate: PoseTrajectory, run: RunInputs, settings: RunSettings
) -> tuple[dict[str, EvaluationResult], list[str]]:
    """Every metric of ``settings`` on ``estimate``: results by name, and notes.

    Metrics with the same evaluation settings are evaluated together (one association
    and alignment). A metric that cannot be computed on this run (no pose matched, a
    degenerate fit, an RPE delta longer than the run) is left out with a note, not a
    failed report.
    """
    groups: dict[EvaluationSettings, list[MetricSpec]] = {}
    for metric in settings.metrics:
        groups.setdefault(settings.settings_of(metric), []).append(metric)
    results: dict[str, EvaluationResult] = {}
    notes: list[str] = []
    with _said_once():
        for chosen, metrics in groups.items():
            results.update(_group(reference, estimate, run, chosen, metrics, notes))
    return {m.name: results[m.name] for m in settings.metrics if m.name in results}, notes


@contextmanager
def _said_once() -> Iterator[None]:
    """Show each warning of the block once, as first raised (the filters' own say first).

    WHY: metrics of different settings (an aligned APE beside one without alignment) are
    prepared apart, and each preparation said its warnings: a KITTI run read without its
    times said that its frames are matched by index once per set of settings (a review).
    WHY at the showing, not recorded and warned again: warned again, a warning lost its
    module (a caller's ``filterwarnings("ignore", module=...)`` let it through) and its
    place in the registry (``"default"`` said it per run), and ``-W error`` raised it only
    after every metric, over the error that stopped them (a review of fd61346).
    """
    said: set[tuple[type[Warning], str]] = set()
    with warnings.catch_warnings():
        show = warnings.showwarning  # the caller's: a terminal's, a record's, the CLI's

        def once(
            message: Warning | str,
            category: type[Warning],
            filename: str,
            lineno: int,
            file: TextIO | None = None,
            line: str | None = None,
        ) -> None:
            if (category, str(message)) not in said:
                said.add((category, str(message)))
                show(message, category, filename, lineno, file, line)

        warnings.showwarning = once
        yield


def _group(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    run: RunInputs,
    settings: EvaluationSettings,
    metrics: list[MetricSpec],
    notes: list[str],
) -> dict[str, EvaluationResult]:
    """Evaluate the metrics that share ``settings``; note what cannot be computed.

    An APE metric refused is the run's error; a NEES one names the run's estimate
    (:func:`_nees_refused`).
    """
    specs: list[Metric] = [m.computed() for m in metrics]
    try:
        done = evaluate(
            reference,
            estimate,
            settings,
            metrics=specs,
            reference_name=run.spec.reference or "",
            estimate_name=run.spec.estimate,
            refused="return",
        )
    except (AssociationError, AlignmentError) as err:
        notes += [f"{metric.name} not evaluated: {err}" for metric in metrics]
        return {}
    results: dict[str, EvaluationResult] = {}
    for metric, result in zip(metrics, done, strict=True):
        if not isinstance(result, ValidationError):
            results[metric.name] = result
        elif metric.metric == "rpe":  # a run shorter than a delta, seconds on frames
            notes.append(f"{metric.name} skipped: {result}")
        elif metric.relation in NEES_DOF:
            raise _nees_refused(result, run, estimate, metric.name) from result
        else:
            raise result
    return results


#: A note that a run has no value of a metric: its name, what befell it, why (written
#: by :func:`_group`, and for ``accuracy`` over a time range lost whole): ``skipped`` (an
#: RPE delta that gave no pair) or ``not evaluated`` (nothing matched, no alignment).
_LEFT_OUT = re.compile(r"(.+?) (skipped|not evaluated): (.*)", re.DOTALL)


def metric_left_out(note: str) -> tuple[str, str, str] | None:
    """Return the metric a run's note says was left out, what befell it, and why.

    WHY: the report says these notes across runs (the text report prints no run's
    notes); the notes are written here, so they are read back here, in one place.
    ``None`` for any other note.

    Examples
    --------
    >>> metric_left_out("rpe:translation:1s:all skipped: a delta of 1 s on frame indices")
    ('rpe:translation:1s:all', 'skipped', 'a delta of 1 s on frame indices')
    >>> metric_left_out("ape:translation not evaluated: No pose to fit the alignment on")
    ('ape:translation', 'not evaluated', 'No pose to fit the alignment on')
    >>> metric_left_out("no reference: accuracy not evaluated (see repeatability)") is None
    True
    """
    match = _LEFT_OUT.fullmatch(note)
    return (match[1], match[2], match[3]) if match else None


def _nees_refused(
    err: ValidationError, run: RunInputs, estimate: PoseTrajectory, metric: str
) -> ValidationError:
    """Return a NEES metric's refusal naming the run's estimate file (and topic).

    Covariances all zero on the estimate's bag topic are said as ``robot-msgs ape`` says
    them (:func:`robot_msgs.io.evaluation_inputs.unknown_covariances`: that file and
    topic, and that ``metric`` needs them); any other refusal (a type without
    covariances, a singular one) is ``err`` after the estimate's file. The run is named
    by the caller, once: ``report`` before the message, ``bench`` as the row's label.
    """
    from robot_msgs.io.evaluation_inputs import InputFile, unknown_covariances  # noqa: PLC0415

    spec = run.spec
    if not spec.estimate:  # built in Python without a file
        return ValidationError(str(err), field=err.field, reason=err.reason)
    if estimate.covariance_6x6 is None:
        given = InputFile(
            path=spec.estimate,
            fmt=spec.estimate_format,
            topic=spec.estimate_topic,
            times_path=spec.estimate_times,
        )
        said = unknown_covariances(given, f"NEES ({metric})")
        if said is not None:
            return ValidationError(said)
    where = spec.estimate + (f" {spec.estimate_topic}" if spec.estimate_topic else "")
    return ValidationError(f"{where}: {err}")


def _path_smoothness(
    estimate: PoseTrajectory | None,
    valid: BoolArray,
    losses: tuple[TrackingLoss, ...],
    window: tuple[float, float] | None,
) -> float:
    """Return the path smoothness of the estimate's tracked stretches within ``window``.

    A stretch is the valid poses between two ``losses`` (on the estimate's clock, as
    ``window``); each of 3 poses or more gives its step changes (its path smoothness
    times its path length), and their sum over the stretches' summed path length is the
    run's: one path smoothness with no step across a loss. WHY: the user's guide and
    robometric-frame ask for it per run; and counted across a loss, the jump from the
    last pose before it to the first after was one step and two changes of step (a walk:
    0.651 .. 0.695 for runs with losses against 0.620 unbroken), losses the report
    counts apart. WHY the sums vectorised over the stretches, the library called only
    for a stretch its rounding rule may zero (changes of step within the rounding of its
    points, :func:`~robot_msgs.metrics.path_smoothness`): called on each stretch, 10^4
    losses in 2 * 10^5 poses took 1.5 s (a review).
    """
    if estimate is None:
        return math.nan
    stamps = estimate.stamps_s
    keep = valid if window is None else valid & (stamps >= window[0]) & (stamps <= window[1])
    starts = np.sort([loss.start_s for loss in losses])
    # The losses begun by each kept pose: equal within a stretch, greater after a loss.
    stretch = np.searchsorted(starts, stamps[keep], side="right")
    first = np.flatnonzero(np.r_[True, np.diff(stretch) != 0])
    size = np.diff(np.r_[first, stretch.size])
    if not np.any(size >= 3):
        return math.nan
    from robot_msgs.metrics.base import difference_rounding, norms  # noqa: PLC0415
    from robot_msgs.metrics.path import path_smoothness  # noqa: PLC0415
    from robot_msgs.series import input_eps  # noqa: PLC0415

    points = estimate.positions_xyz[keep]
    owner = np.repeat(np.arange(size.size), size)  # each kept pose's stretch
    counted = size[owner] >= 3
    # Step i joins poses i, i + 1; change i poses i .. i + 2: counted within one stretch.
    step_in = counted[:-1] & (owner[1:] == owner[:-1])
    change_in = step_in[1:] & step_in[:-1]
    step = norms(np.diff(points, axis=0))
    change = norms(np.diff(points, n=2, axis=0))
    n = size.size
    lengths = np.bincount(owner[:-1][step_in], weights=step[step_in], minlength=n)
    changes = np.bincount(owner[:-2][change_in], weights=change[change_in], minlength=n)
    largest = np.zeros(n)
    np.maximum.at(largest, owner[:-2][change_in], change[change_in])
    # The library's bound for its rounding rule (past it, no change is rounding): below
    # it, the stretch's own call says its changes, 0 where they are rounding.
    far = np.abs(points[first]).max(axis=-1) + lengths
    bound = 4.0 * difference_rounding(far, points.shape[-1], input_eps(points))
    for k in np.flatnonzero((size >= 3) & (largest <= bound)):
        piece = points[first[k] : first[k] + size[k]]
        changes[k] = float(path_smoothness(piece)) * lengths[k]
    total = math.fsum(lengths)
    return math.fsum(changes) / total if total > 0 else 0.0


def evaluate_run(
    run: RunInputs,
    settings: RunSettings | None = None,
    *,
    sequence_span: tuple[float, float] | None = None,
) -> RunEvaluation:
    """Evaluate one run: success, losses, coverage, every metric, latency, rates, resources.

    Parameters
    ----------
    run : RunInputs
        From :func:`robot_msgs.runs.load_run`, read by ``settings.reading`` (the files
        are read there: the reading rules are not applied here).
    settings : RunSettings, optional
        How runs are evaluated (default: SE(3) alignment, nearest association within
        0.01 s, APE translation and RPE over 1 s).
    sequence_span : (float, float), optional
        The span of the run's sequence that its runs show, seconds on the estimate's
        clock (:func:`robot_msgs.runs.spans.sequence_spans`): a run without a reference
        is judged against it instead of its own (its timing log's, or none). A run with
        a reference keeps its reference's, unless matched in space (``sync='spatial'``),
        where its reference gives it no span: it is judged as one without.

    Returns
    -------
    RunEvaluation
        The report and the evidence behind its numbers and plots.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.runs import RunInputs, RunSpec
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(0.0, 10.01, 0.1)
    >>> traj = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((t.size, 3)),
    ...                       orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1)))
    >>> report = evaluate_run(RunInputs(spec=RunSpec(name="a"), estimate=traj)).report
    >>> report.success, report.accuracy, report.repeatability
    (True, None, None)
    """
    settings = RunSettings() if settings is None else settings
    spec = run.spec
    estimate = run.estimate
    stamps = estimate.stamps_s if estimate is not None else _EMPTY
    start_s, end_s, span_source = own = _span(run, settings.evaluation)
    shown = ""
    if sequence_span is not None and span_source != "reference":
        shown = _shown_note(run, own, sequence_span, settings.evaluation)
        (start_s, end_s), span_source = sequence_span, SHOWN_BY_RUNS
    # The time range cuts everything the report says (span, coverage, losses, latency),
    # not the accuracy alone: --t-start 5 said a loss at 3 s and the latency of frames
    # all before 5 s beside a coverage of 5 .. 10 s; past the sequence's end it made a
    # span from 20 to 10 s and a success (a review).
    window = _window(run, settings.evaluation)
    ranged = window is not None
    spanless = math.isnan(end_s)
    missed = ""
    inside: BoolArray | None = None
    if window is not None and spanless and stamps.size:
        # No span to cut the range to (no reference, no timing log): the range still cuts
        # the losses and what is judged, as it does a span, and one that holds nothing of
        # the estimate leaves nothing to judge. It cut the note alone: --t-start 5 said a
        # loss from 3 s, 7 s lost, and --t-start 20 of an estimate of 0 .. 10 s a success.
        first, last = float(stamps[0]), float(stamps[-1])
        if max(first, window[0]) > min(last, window[1]):
            missed = _missed_note(settings.evaluation, (first, last), spanless=True)
            window = _NOTHING
        else:
            inside = (stamps >= window[0]) & (stamps <= window[1])
    elif window is not None and not spanless:
        low, high = max(start_s, window[0]), min(end_s, window[1])
        if low < high:
            start_s, end_s = low, high
            window = (low, high)
        else:
            # Nothing of the sequence to keep, so no loss and no frame either: it said the
            # run's loss at 3 .. 4 s and the latency and rate of its frames at 0 .. 2 s
            # beside 'time range outside the sequence' for --t-start 20 (a review).
            missed = _missed_note(settings.evaluation, (start_s, end_s))
            window = _NOTHING
    losses: tuple[TrackingLoss, ...] = ()
    if run.tracking is not None:
        known_end = (
            end_s if not math.isnan(end_s) else (float(stamps[-1]) if stamps.size else math.nan)
        )
        losses = losses_from_log(run.tracking, end_s=known_end)
    valid = valid_mask(stamps, losses)
    all_losses = losses  # those valid reads, before the time range cuts them
    # A range wholly inside one loss holds no tracked pose: each metric advised to 'raise
    # max_diff_s' as if the stamps were too far apart (a hunt). A loss is [start, end), as
    # valid_mask reads it: a range ending at the recovery holds the pose tracked there
    # (--t-end 6 over a loss of 3 .. 6 s said 'no pose in it was tracked'; a review).
    lost_over = next(
        (
            loss
            for loss in losses
            if window is not None
            and not missed
            and loss.start_s <= window[0]
            and (loss.end_s > window[1] or not loss.recovered)
        ),
        None,
    )
    if window is not None:
        losses, run = _in_window(run, losses, window, clip=spanless)
    elif not spanless:
        # The losses that meet the sequence, as a time range over all of it keeps them: a
        # loss wholly before the reference (initialising) was counted, 1 loss beside
        # 0.0 s lost and a coverage of 100 %, and dropped by --t-start at its start.
        losses = tuple(loss for loss in losses if loss.end_s > start_s and loss.start_s <= end_s)
    gap, tolerance = _limits(run, settings)
    cover = coverage(stamps, losses, start_s=start_s, end_s=end_s, coverage_gap_s=gap)
    failure, notes = _judge(
        run, stamps, valid, losses, (start_s, end_s), settings, cover, tolerance, inside
    )
    if _unrated(run) and not spanless and not missed and stamps.size:
        notes.append(UNRATED_NOTE)
    # A range that leaves nothing of the sequence leaves no loss, end or coverage to judge
    # either: a loss at 5 s of 0 .. 10 s with --t-start 20 said 'tracking lost' (rvC's
    # review). What the run itself says (its failure, no estimate) stands.
    if missed:
        cover = math.nan
        if not (run.spec.meta.reported_failure or stamps.size == 0):
            failure, notes = "time range outside the sequence", [missed]
        else:
            notes.append(missed)
    elif window is not None:
        # On the reference's clock, where the range is given (with an offset it was said on
        # the estimate's, 4.50 .. 9.50 s for --t-start 5 --offset 0.5; rvC's review).
        # Without a span (no reference, no timing log), the range as given: it said
        # 'within nan .. nan s' (the span's ends).
        low, high = (w + settings.evaluation.offset_s for w in window)
        if math.isinf(high):
            said = f"from {low:.2f} s"
        elif math.isinf(low):
            said = f"up to {high:.2f} s"
        else:
            said = f"within {low:.2f} .. {high:.2f} s"
        notes.append(f"losses, coverage, latency and path smoothness {said}")
    elif settings.evaluation.t_start_s is not None or settings.evaluation.t_end_s is not None:
        # Matched in space (_window): the range is on the reference's clock, not the run's.
        notes.append(
            "losses, coverage, latency and path smoothness over the whole run: matched in "
            "space, the time range cuts the reference's poses only"
        )
    if ranged:
        meta = run.spec.meta
        whole = [
            what
            for what, there in (
                ("resources.csv", run.resources is not None),
                ("the bag's latency", run.timing is None and meta.bag and meta.latency_topic),
            )
            if there
        ]
        if whole:
            notes.append(f"{' and '.join(whole)}: over the whole run, not the time range")
    if shown:
        notes.append(shown)
    for log, read_as in (
        (run.tracking, "no tracking event, no loss"),
        (run.resources, "no resource sample"),
    ):
        # WHY: a 0-byte log reads as no event, as a logger that writes only on a loss
        # leaves it, but a logger that never wrote leaves it too: '0 losses' alone passed
        # that over unsaid; so did no CPU or memory figure of a resource sampler's.
        if log is not None and log.empty:
            notes.append(f"{log.path.name} is empty (0 bytes): read as {read_as}")
    results: dict[str, EvaluationResult] = {}
    if lost_over is not None and run.reference is not None:
        shift = settings.evaluation.offset_s
        end = (
            f"recovered at {lost_over.end_s + shift:.2f} s"
            if lost_over.recovered
            else "never recovered"
        )
        notes.append(
            "accuracy not evaluated: tracking was lost over the whole time range (lost at "
            f"{lost_over.start_s + shift:.2f} s, {end}): no pose in it was tracked"
        )
    elif run.reference is not None and estimate is not None and valid.any():
        results, metric_notes = _metrics(run.reference, keep_poses(estimate, valid), run, settings)
        notes.extend(metric_notes)
        if results and not valid.all():
            extra = (
                f"evaluated on the {int(valid.sum())} valid poses of {valid.size} (losses excluded)"
            )
            results = {
                name: r.replace(comparison=r.comparison.replace(notes=(*r.notes, extra)))
                for name, r in results.items()
            }
    if run.reference is None:
        notes.append("no reference: accuracy not evaluated (see repeatability)")
    # The timing log is cut to a time range only: without one, the frames it skipped in a
    # loss the sequence does not meet (initialising before the reference starts) are that
    # loss's too, not dropped (they were).
    latency, latency_s, processing_s = _latency(run, losses if window is not None else all_losses)
    meta = spec.meta
    # The output rate over the time range, as the input rate (the timing log cut to it).
    output = stamps if window is None else stamps[(stamps >= window[0]) & (stamps <= window[1])]
    report = RunReport(
        name=spec.name,
        success=not failure,
        failure=failure,
        algorithm=spec.algorithm,
        version=meta.version,
        dataset=meta.dataset,
        sequence=spec.sequence,
        trial=spec.trial,
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
        comparisons={name: r.comparison.summary() for name, r in results.items()},
        latency=latency,
        input_rate_hz=rate_hz(run.timing.acquisition_s) if run.timing is not None else math.nan,
        nominal_input_rate_hz=meta.input_rate_hz,
        # Frame indices (KITTI without its times) have no rate in hertz: it said 1.0 Hz.
        output_rate_hz=math.nan
        if estimate is not None and estimate.stamps_are_frames
        else rate_hz(output),
        resources=resources_from_log(run.resources) if run.resources is not None else None,
        notes=tuple(notes),
        stamps_are_frames=estimate is not None and estimate.stamps_are_frames,
        path_smoothness=_path_smoothness(
            estimate, valid, all_losses, _NOTHING if missed else window
        ),
    )
    return RunEvaluation(
        report=report,
        estimate=estimate,
        reference=run.reference,
        valid=valid,
        results=results,
        latency_s=latency_s,
        processing_s=processing_s,
    )
