"""What one run did, beyond accuracy: ``RunReport`` and its parts.

The SLAM evaluation guide (``seeds/slam-evaluation-guide-en.md``, "Report more than
accuracy") asks for failures (runs, tracking losses, recovery seconds), latency
(acquisition-to-available p50/p95 and the clock it was measured on), resources (CPU/GPU,
threads, memory, input rate, software versions) next to APE/RPE, and, without ground
truth, repeatability labelled as not establishing accuracy. These messages hold exactly
that; :func:`robot_msgs.report.run_report` computes them from a run's files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import field
from typing import Annotated

import numpy as np

from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.configuration import Configuration
from robot_msgs.compare.statistics import ErrorStats
from robot_msgs.msg import Msg, Scalar, Shape, Value, message
from robot_msgs.msg.primitives import Count, MissingFloat
from robot_msgs.typing import Float64Array

__all__ = [
    "REPEATABILITY_STATEMENT",
    "Latency",
    "Repeatability",
    "Resources",
    "RunReport",
    "TrackingLoss",
    "parameters_text",
    "versions_text",
]

REPEATABILITY_STATEMENT = (
    "Repeatability compares repeated runs with each other, not with ground truth: "
    "it does not establish position accuracy."
)
"""The label every :class:`Repeatability` carries (the guide: state that it does not
directly establish position accuracy)."""

NAN = math.nan


@message("compare/TrackingLoss")
class TrackingLoss(Msg):
    """One interval during which the estimate was not valid (tracking lost).

    ``recovery_s = end_s - start_s`` is the recovery time the guide asks for. A loss
    never recovered has ``recovered=False`` and ends at the end of the sequence (or of
    what is known about it), so its duration counts as lost time, not as a recovery.

    Attributes
    ----------
    start_s : float, seconds on the sensor (acquisition) clock
        When tracking was lost.
    end_s : float, seconds on the sensor (acquisition) clock
        When it recovered.
    recovered : bool
        ``False``: never recovered.
    """

    start_s: float
    end_s: float
    recovered: bool = True

    def _validate(self) -> None:
        for name in ("start_s", "end_s"):  # the time that is not finite is the one named
            if not math.isfinite(getattr(self, name)):
                raise self._fail(field=name, expected="a finite time", got=getattr(self, name))
        if self.end_s < self.start_s:  # either time may be the wrong one: both named
            raise self._fail_rule(first="start_s", second="end_s", rule="start_s <= end_s")

    @property
    def duration_s(self) -> float:
        """Seconds without a valid estimate."""
        return self.end_s - self.start_s


@message("compare/Latency")
class Latency(Msg):
    """Per-frame timing: acquisition-to-available latency apart from processing time.

    A system that keeps up shows equal p50s; one that falls behind shows latency grow
    while processing stays flat. Percentiles use linear interpolation between order
    statistics (NumPy's default, Hyndman & Fan 1996 type 7): each figure is a finite
    duration >= 0 and ``p50 <= p95 <= max``. Unknown figures are NaN (a bag proxy has no
    processing times).

    WHY both: the guide says "per-frame processing time differs from latency including
    queueing".

    Attributes
    ----------
    source : str
        How the stamps were obtained: ``"timing_log"`` (a per-frame log) or
        ``"bag_receive_proxy"`` (bag receive time minus header stamp: a proxy, see
        :func:`robot_msgs.runs.latency.latency_from_bag`).
    n_frames : int
        The frames timed (latency samples).
    latency_p50_s : float, seconds
        Median latency, ``available - acquisition``: the age of the newest estimate when
        it appears, queueing and transport included. NaN: no frame timed.
    latency_p95_s : float, seconds
        95th percentile of the latency.
    latency_max_s : float, seconds
        Largest latency.
    latency_mean_s : float, seconds
        Mean latency.
    processing_p50_s : float, seconds
        Median processing time, ``available - processing_start``: the work on one frame
        alone (frames without one left out). NaN: unknown (a bag proxy, a log without
        processing times).
    processing_p95_s : float, seconds
        95th percentile of the processing time; NaN: unknown.
    processing_max_s : float, seconds
        Largest processing time; NaN: unknown.
    processing_mean_s : float, seconds
        Mean processing time; NaN: unknown.
    clock : str
        How the clocks were synchronised, as reported by the run; ``""`` when not said.
    notes : tuple of str
        Caveats for the reader (a bag proxy, clock synchronisation not stated, dropped
        frames unknown).
    n_dropped : int
        The input frames the log skips: the gaps in its ``frame`` numbers, the input's
        own numbering (``-1``: unknown, as from a bag proxy or frames that are not
        increasing integers). Frames after the log's last one are not counted, nor those
        acquired while tracking was lost (the loss counts them; the notes say how many).
    """

    source: str
    n_frames: Count
    latency_p50_s: float
    latency_p95_s: float
    latency_max_s: float
    latency_mean_s: float
    processing_p50_s: MissingFloat = NAN
    processing_p95_s: MissingFloat = NAN
    processing_max_s: MissingFloat = NAN
    processing_mean_s: MissingFloat = NAN
    clock: str = ""
    notes: tuple[str, ...] = ()
    n_dropped: int = -1

    def _validate(self) -> None:
        if self.n_dropped < -1:
            expected = "a count >= 0, or -1 for unknown"
            raise self._fail(field="n_dropped", expected=expected, got=self.n_dropped)
        # One test of them all, most often passed: NaN (unknown), +inf (and 1e308 up, to
        # be sure) go to the full check. Literal floats compare faster than 0 or math.inf.
        # No processing time at all (a bag proxy, a log without them: four NaN) passes
        # too: it went to the full check, 2 us more than a log with them
        p50, p95, top, mean = (
            self.processing_p50_s,
            self.processing_p95_s,
            self.processing_max_s,
            self.processing_mean_s,
        )
        if not (
            0.0 <= self.latency_p50_s <= self.latency_p95_s <= self.latency_max_s < 1e308
            and 0.0 <= self.latency_mean_s < 1e308
            and (
                (0.0 <= p50 <= p95 <= top < 1e308 and 0.0 <= mean < 1e308)
                or (p50 != p50 and p95 != p95 and top != top and mean != mean)  # noqa: PLR0124
            )
        ):
            self._check_figures()

    def _check_figures(self) -> None:
        """Refuse a duration below 0 or +inf (NaN: unknown), and percentiles out of order.

        -1 s and +inf were kept, and a p50 above the max. Of a pair out of order (NaN
        compares False: unknown) either field breaks the rule, so both are named.
        """
        self._check_measures(_LATENCY_FIGURES, "a finite duration >= 0 (NaN: unknown)")
        for kind in ("latency", "processing"):
            p50, p95, top = f"{kind}_p50_s", f"{kind}_p95_s", f"{kind}_max_s"
            if getattr(self, p95) < getattr(self, p50):
                raise self._fail_rule(first=p50, second=p95, rule=f"{p50} <= {p95}")
            if getattr(self, top) < getattr(self, p95):
                raise self._fail_rule(first=p95, second=top, rule=f"{p95} <= {top}")


#: The figures of :class:`Latency`, seconds >= 0 or NaN (unknown).
_LATENCY_FIGURES = (
    "latency_p50_s",
    "latency_p95_s",
    "latency_max_s",
    "latency_mean_s",
    "processing_p50_s",
    "processing_p95_s",
    "processing_max_s",
    "processing_mean_s",
)


#: The rates of :class:`RunReport`, Hz >= 0 or NaN (unknown).
_RATES = ("input_rate_hz", "nominal_input_rate_hz", "output_rate_hz")


#: The figures of :class:`Resources` that are >= 0 or NaN (unknown).
_RESOURCE_FIGURES = (
    "duration_s",
    "peak_rss_bytes",
    "mean_cpu_percent",
    "peak_cpu_percent",
    "peak_gpu_mem_bytes",
    "mean_gpu_percent",
    "peak_gpu_percent",
)


@message("compare/Resources")
class Resources(Msg):
    """Resource use sampled while the run ran: memory, CPU, threads, GPU.

    Peaks are sample maxima, so a spike shorter than the sampling interval can be missed.
    Absent columns give NaN (floats) or -1 (``peak_threads``).

    Attributes
    ----------
    n_samples : int
        The samples logged (rows of ``resources.csv``).
    duration_s : float, seconds
        From the first sample to the last (0 for one sample).
    peak_rss_bytes : float, bytes
        The largest resident set size sampled; NaN: not logged.
    mean_cpu_percent : float, percent
        The plain mean of the CPU use sampled (the samples are assumed evenly spaced), as
        ``top``/``psutil`` give it: 100 is one core fully busy, so a multi-threaded
        process can exceed 100. NaN: not logged.
    peak_cpu_percent : float, percent
        The largest CPU use sampled (100: one core fully busy); NaN: not logged.
    peak_threads : int
        The most threads sampled; -1: not logged.
    peak_gpu_mem_bytes : float, bytes
        The largest GPU memory use sampled; NaN: not logged.
    mean_gpu_percent : float, percent
        The mean GPU use sampled; NaN: not logged.
    peak_gpu_percent : float, percent
        The largest GPU use sampled; NaN: not logged.
    """

    n_samples: Count
    duration_s: float
    peak_rss_bytes: float
    mean_cpu_percent: float
    peak_cpu_percent: float
    peak_threads: int = -1
    peak_gpu_mem_bytes: MissingFloat = NAN
    mean_gpu_percent: MissingFloat = NAN
    peak_gpu_percent: MissingFloat = NAN

    def _validate(self) -> None:
        # seconds, bytes, percentages of use
        self._check_measures(_RESOURCE_FIGURES, "a finite value >= 0 (NaN: unknown)")


@message("compare/Repeatability")
class Repeatability(Msg):
    """How much repeated runs of one sequence agree with each other (no ground truth).

    Attributes
    ----------
    runs : tuple of str
        The K runs compared, by name, in the matrix's order.
    pairwise_ape_rms_m : ndarray, shape (K, K), float64, metres
        ``[i, j]``: the translation APE RMSE of run ``j`` evaluated against run ``i`` as
        if it were the reference, with ``settings`` (for i < j; the matrix is mirrored,
        diagonal 0; NaN: the pair gave none).
    pairwise : ErrorStats
        Summarises the K(K-1)/2 pair values, metres.
    endpoint_spread_m : float, metres
        The RMS distance of the runs' final positions, each expressed relative to its
        own first pose, from their mean.
    endpoint_max_m : float, metres
        The largest distance between two such endpoints.
    settings : mapping of str to value
        The evaluation settings the pairs were compared with, flat.
    statement : str
        Always :data:`REPEATABILITY_STATEMENT`: agreement between runs says nothing
        about a bias they share.
    """

    runs: tuple[str, ...]
    pairwise_ape_rms_m: Annotated[Float64Array, Shape("K", "K")]
    pairwise: ErrorStats
    endpoint_spread_m: float
    endpoint_max_m: float
    settings: Mapping[str, Value] = field(default_factory=dict)
    statement: str = REPEATABILITY_STATEMENT

    def _validate(self) -> None:
        k = len(self.runs)
        if self.pairwise_ape_rms_m.shape != (k, k):
            raise self._fail(
                field="pairwise_ape_rms_m",
                expected=f"shape ({k}, {k})",
                got=self.pairwise_ape_rms_m,
            )
        matrix = self.pairwise_ape_rms_m
        with np.errstate(invalid="ignore"):  # NaN compared; a signalling NaN tested in any()
            wrong = (
                bool((matrix < 0).any())
                or not np.array_equal(matrix, matrix.T, equal_nan=True)
                or bool(np.diag(matrix).any())
            )
        if wrong:
            expected = "RMSEs >= 0 (NaN: none), the matrix mirrored, its diagonal 0"
            raise self._fail(field="pairwise_ape_rms_m", expected=expected, got=matrix)
        if self.statement != REPEATABILITY_STATEMENT:
            raise self._fail(
                field="statement", expected=repr(REPEATABILITY_STATEMENT), got=self.statement
            )


@message("compare/RunReport")
class RunReport(Msg):
    """One run of one algorithm on one sequence: success, losses, accuracy, timing, resources.

    ``success``/``failure``, ``losses`` and ``coverage`` are reported beside accuracy,
    never folded into it. :attr:`accuracy` is the first comparison (the one rankings
    use), :attr:`rpe` the RPE ones. Time fields are seconds on the sensor clock.

    WHY success and accuracy apart: the guide's "keep the hard intervals" - removing
    the hard sections leaves an accuracy score for successful tracking only.

    Attributes
    ----------
    name : str
        The run's name, what tables and notes call it.
    success : bool
        Whether the run produced a usable estimate.
    algorithm : str
        What ran; ``""`` when not said.
    sequence : str
        What it ran on; ``""`` when not said.
    version : str
        The algorithm's version, as the run's ``meta.json`` says; ``""`` when not said.
    dataset : str
        The dataset of ``sequence``, as ``meta.json`` says; ``""`` when not said.
    hardware : str
        The machine the run ran on (``"8-core x86-64, 32 GB"``), as ``meta.json`` says;
        ``""`` when not said.
    trial : str
        Which repeat of ``algorithm`` on ``sequence``; ``""`` when not said.
    parameters : mapping of str to scalar
        The algorithm's parameters of the run, as its ``meta.json`` says.
    software : mapping of str to str
        ``{package: version}`` of the software the run used.
    failure : str
        Why the run failed; ``""`` for a successful run (never for a failed one).
    n_estimate : int
        The estimate's poses.
    n_valid : int
        Those outside every tracking loss, at most ``n_estimate``: the ones evaluated.
    estimate_start_s : float, seconds
        The stamp of the estimate's first pose; NaN without a pose.
    estimate_end_s : float, seconds
        The stamp of its last pose; NaN without a pose.
    sequence_start_s : float, seconds
        The start of the span the run was supposed to cover; NaN when unknown.
    sequence_end_s : float, seconds
        The end of that span; NaN when unknown.
    span_source : str
        Where that span comes from: ``"reference"``, ``"timing"``, ``"runs"`` (the span
        the other runs of its sequence show, :mod:`robot_msgs.runs.spans`), or ``""``
        when unknown.
    losses : tuple of TrackingLoss
        The intervals without a valid estimate, in time order, not overlapping.
    coverage : float
        The share of the sequence's span with a valid estimate, in ``[0, 1]``; NaN when
        the span is unknown.
    comparisons : mapping of str to Comparison
        One per metric of the run settings, by the metric's name
        (``"ape:translation"``, ``"rpe:translation:1s:all"``), computed on the valid
        poses only, without series; empty without a reference.
    latency : Latency or None
        Per-frame latency and processing time; ``None`` without a timing log or bag.
    input_rate_hz : float, hertz
        The effective rate of frames processed (the timing log's acquisition stamps);
        NaN when unknown.
    nominal_input_rate_hz : float, hertz
        The rate the sensor delivered (from the metadata); NaN when not said.
    output_rate_hz : float, hertz
        The effective rate of estimates, ``(N - 1) / (t_last - t_first)``; NaN for fewer
        than two poses or a span of 0.
    resources : Resources or None
        Memory, CPU and GPU use; ``None`` without a ``resources.csv``.
    repeatability : Repeatability or None
        Without a reference, the spread of this run's repeats (at least two runs of its
        sequence with an estimate); else ``None``.
    notes : tuple of str
        What a reader must know (a time range, poses left out, no reference).
    stamps_are_frames : bool
        The run's stamps are frame indices (a KITTI estimate read without its times
        file): its losses, estimate and sequence spans count frames, not seconds, so
        :attr:`lost_s` is NaN and :attr:`lost_frames` says them.
    path_smoothness : float, dimensionless
        robometric-frame's PathSmoothness of the estimate's valid positions in the time
        range (:func:`robot_msgs.metrics.path_smoothness`: the summed norms of the
        differences of consecutive steps over the path length; 0 for a straight line at
        even steps, lower is smoother), of each tracked stretch between two tracking
        losses: their changes of step summed over their path lengths summed, no step
        across a loss. Matched in space, a time range does not cut it (it is on the
        reference's clock). NaN where no stretch has 3 poses. It depends on the rate the
        estimate is sampled at (a path at 29 Hz 0.620, every third pose of it 0.355):
        compare runs of one output rate.
    """

    name: str
    success: bool
    algorithm: str = ""
    version: str = ""
    dataset: str = ""
    sequence: str = ""
    trial: str = ""
    hardware: str = ""
    parameters: Mapping[str, Scalar] = field(default_factory=dict)
    software: Mapping[str, str] = field(default_factory=dict)
    failure: str = ""
    n_estimate: Count = 0
    n_valid: Count = 0
    estimate_start_s: MissingFloat = NAN
    estimate_end_s: MissingFloat = NAN
    sequence_start_s: MissingFloat = NAN
    sequence_end_s: MissingFloat = NAN
    span_source: str = ""
    losses: tuple[TrackingLoss, ...] = ()
    coverage: MissingFloat = NAN
    comparisons: Mapping[str, Comparison] = field(default_factory=dict)
    latency: Latency | None = None
    input_rate_hz: MissingFloat = NAN
    nominal_input_rate_hz: MissingFloat = NAN
    output_rate_hz: MissingFloat = NAN
    resources: Resources | None = None
    repeatability: Repeatability | None = None
    notes: tuple[str, ...] = ()
    stamps_are_frames: bool = False
    path_smoothness: MissingFloat = NAN

    def _validate(self) -> None:
        if self.success and self.failure:
            raise self._fail(field="failure", expected="'' for a successful run", got=self.failure)
        if not self.success and not self.failure:
            raise self._fail(
                field="failure", expected="a reason for a failed run", got=self.failure
            )
        if not (math.isnan(self.coverage) or 0.0 <= self.coverage <= 1.0):
            raise self._fail(
                field="coverage", expected="a share in [0, 1] or NaN", got=self.coverage
            )
        self._check_measures(_RATES, "a finite rate >= 0 (NaN: unknown)")
        if self.n_valid > self.n_estimate:  # either count may be the wrong one: both named
            rule = "n_valid <= n_estimate"
            raise self._fail_rule(first="n_valid", second="n_estimate", rule=rule)
        starts = np.array([loss.start_s for loss in self.losses])
        ends = np.array([loss.end_s for loss in self.losses])
        if starts.size > 1 and (starts[1:] < ends[:-1]).any():
            i = int(np.flatnonzero(starts[1:] < ends[:-1])[0]) + 1
            raise self._fail(
                field=f"losses[{i}]",
                expected="losses in time order, not overlapping",
                got=self.losses[i],
            )

    @property
    def n_losses(self) -> int:
        """How many times tracking was lost."""
        return len(self.losses)

    @property
    def lost_s(self) -> float:
        """Total seconds without a valid estimate within the sequence, over all losses.

        Each loss is cut to ``[sequence_start_s, sequence_end_s]`` where that span is
        known, as :attr:`coverage` is: a loss from 3 s before the reference to 0.5 s into
        it was 3.5 s lost beside a coverage missing 0.5 s (a review). A loss itself keeps
        its logged times (its recovery time is the whole of it). NaN for a run stamped by
        frame index (:attr:`lost_frames`): its 200 frames lost were said as 200 s (a hunt).
        """
        return math.nan if self.stamps_are_frames else self._lost()

    @property
    def lost_frames(self) -> float:
        """Total frames without a valid estimate, as :attr:`lost_s` counts seconds.

        NaN for a run on a clock (not :attr:`stamps_are_frames`): its frames are not known
        from its losses.
        """
        return self._lost() if self.stamps_are_frames else math.nan

    def _lost(self) -> float:
        """Sum the losses cut to the sequence, in the run's stamp unit (seconds or frames)."""
        low, high = self.sequence_start_s, self.sequence_end_s
        if not (math.isfinite(low) and math.isfinite(high)):
            return float(sum(loss.duration_s for loss in self.losses))
        return float(
            sum(max(0.0, min(loss.end_s, high) - max(loss.start_s, low)) for loss in self.losses)
        )

    @property
    def configuration(self) -> Configuration:
        """What rankings and summaries key the run on: its algorithm, version and parameters."""
        return Configuration.of(self.algorithm, self.version, self.parameters)

    @property
    def accuracy(self) -> Comparison | None:
        """The first comparison (the metric rankings use), or ``None`` without any."""
        return next(iter(self.comparisons.values()), None)

    @property
    def ape(self) -> Comparison | None:
        """The first APE comparison (what tables and figures label APE), or ``None``.

        Not :attr:`accuracy` when the settings put another metric first (an RPE ranked).
        """
        return next((c for c in self.comparisons.values() if c.metric == "ape"), None)

    @property
    def rpe(self) -> tuple[Comparison, ...]:
        """The RPE comparisons, in the settings' order."""
        return tuple(c for c in self.comparisons.values() if c.metric == "rpe")

    @property
    def has_reference(self) -> bool:
        """Whether accuracy could be evaluated (a reference was given and matched)."""
        return bool(self.comparisons)


def parameters_text(parameters: Mapping[str, Scalar]) -> str:
    """Return a run's parameters as one JSON text, keys sorted: a table's cell.

    Non-finite floats are spelled as in the run's report (``"NaN"``, ``"Infinity"``),
    so ``nan`` and ``None`` stay apart.

    Examples
    --------
    >>> parameters_text({"scale": float("nan"), "n_features": 1000}), parameters_text({})
    ('{"n_features":1000,"scale":"NaN"}', '{}')
    """
    if not parameters:
        return "{}"
    from robot_msgs.msg.fields import specs_of  # noqa: PLC0415 - tables with parameters only
    from robot_msgs.msg.json import field_json  # noqa: PLC0415

    return field_json(specs_of(RunReport)["parameters"], dict(sorted(parameters.items())))


def versions_text(software: Mapping[str, str]) -> str:
    """Return a run's software versions as one JSON text, packages sorted: a table's cell.

    Examples
    --------
    >>> versions_text({"torch": "2.3.1", "numpy": "2.4.6"}), versions_text({})
    ('{"numpy":"2.4.6","torch":"2.3.1"}', '{}')
    """
    if not software:
        return "{}"
    from robot_msgs.msg.fields import specs_of  # noqa: PLC0415 - tables with versions only
    from robot_msgs.msg.json import field_json  # noqa: PLC0415

    return field_json(specs_of(RunReport)["software"], dict(sorted(software.items())))
