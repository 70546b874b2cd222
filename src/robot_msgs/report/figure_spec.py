"""The run report's six figures, each described once, for any backend to draw.

A builder takes a :class:`~robot_msgs.report.ReportResult` and returns a
:class:`FigureSpec` (or ``None`` when it has nothing to draw): every number, label,
unit, colour, loss interval and reference gap is decided here, so the static figures
(:func:`robot_msgs.report.plots.matplotlib_figure`) and the interactive ones
(:func:`robot_msgs.report.interactive.plotly_figure`) show the same data. A description
holds what the figures need and no more: panels side by side, each with traces of a few
kinds, and what only one backend can do said in the terms of the figure (a trace hidden
until chosen in the legend, a hover text), never in a backend's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

import numpy as np

from robot_msgs.compare.signal import delta_words
from robot_msgs.errors import ValidationError
from robot_msgs.report.figure_text import over_time
from robot_msgs.report.figures import auto_plane, break_gaps, curve_look, time_label
from robot_msgs.report.group_tables import accuracy_label
from robot_msgs.report.run_tables import configuration_names, sequence_name
from robot_msgs.report.text import counted
from robot_msgs.rotations import quat_xyzw_rotate

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import ErrorSeries
    from robot_msgs.report.build import ReportResult
    from robot_msgs.runs.evaluate import RunEvaluation
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = [
    "BAR_LABEL_GAP_PT",
    "PAGE_PX_PER_IN",
    "ColourScale",
    "FigureSpec",
    "Panel",
    "Trace",
    "bar_foot",
    "bar_label_tops",
    "comparison_spec",
    "dots_only",
    "error_over_time_spec",
    "latency_cdf_spec",
    "page_legend_px",
    "repeatability_spec",
    "rpe_box_spec",
    "start_frame_positions",
    "trajectories_spec",
]

Dash = Literal["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]
#: Line dashes, in turn, telling apart the curves of one colour.
DASHES: tuple[Dash, ...] = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
Hatch = Literal["", "/", ".", "x", "\\", "+"]
#: A bar's, box's or violin's fill pattern by the round of its colour
#: (:func:`~robot_msgs.report.figures.curve_look`): none for the first eight, then in turn.
HATCHES: tuple[Hatch, ...] = ("", "/", ".", "x", "\\", "+")
Mark = Literal["", "circle", "triangle-up", "square", "diamond", "triangle-down", "x"]
#: Marks along a line, in turn, where its colour and dash are not enough to tell it
#: from another (a line's marks stand at a dozen of its points, not at every one).
MARKS: tuple[Mark, ...] = ("", "circle", "triangle-up", "square", "diamond", "triangle-down", "x")
#: Marks along a line: about this many, evenly spaced (both backends put them alike).
MARKS_ALONG = 12


@dataclass(frozen=True, slots=True, kw_only=True, eq=False)  # equal when the same: arrays
class Trace:
    """One drawn series: a line, markers, a shaded interval, a box, a violin, bars or a histogram.

    ``x`` holds numbers, or category names for ``box`` and ``violin`` (one per value of
    ``y``) and ``bar`` (one per bar). A ``line`` is broken where ``y`` (or ``x``) is NaN; a
    ``step`` holds each value until the next ``x``; a ``span`` shades ``x = (start, end)``
    over the panel's height; a ``violin`` spans its smallest to its largest value; a
    ``histogram`` outlines ``y[k]`` values between the bin edges ``x[k]`` and ``x[k + 1]``.
    Legend entries are ``name`` (none when empty), one per ``(group,
    name)``; a ``titled`` group's name heads its entries (where a legend mixes titled
    groups and has no headings, it prefixes them). ``values`` colour markers on the
    figure's :class:`ColourScale`; ``low``/``high`` are a bar's whisker ends and ``text``
    a label per point. ``mark`` sets marks along a line or step (a dozen, evenly spaced)
    and the symbol of ``markers`` (default: a circle), ``hatch`` fills a bar or box with
    a pattern (a violin too, in the static figure; plotly.js draws a hatched box hollow
    or notched, as it patterns no box); with ``colour`` and ``dash`` they tell one trace
    from another (``hatched`` shades a span with stripes). ``hidden`` traces are drawn
    only when chosen in the legend. The rest is for hovering: ``run`` names the run
    (views of a sequence are linked by it and by ``poses``, the pose row of each point),
    ``stamps_s`` each point's stamp, and ``hover`` the text shown, with ``{x}``,
    ``{y}``, ``{value}``, ``{stamp}``, ``{pose}`` and ``{text}`` (format spec allowed:
    ``{y:.4f}``) standing for the point's own, ``{{`` and ``}}`` for braces
    (:func:`_literal`).
    """

    kind: Literal["line", "step", "markers", "span", "box", "violin", "bar", "histogram"]
    x: Float64Array | tuple[str, ...]
    y: Float64Array = field(default_factory=lambda: np.empty(0))
    name: str = ""
    group: str | None = None
    titled: bool = False
    colour: str = "#000000"
    dash: Dash = "solid"
    mark: Mark = ""
    width: float = 1.2
    size: float = 4.0
    alpha: float = 1.0
    hatched: bool = False
    hatch: Hatch = ""
    mark_end: bool = False
    values: Float64Array | None = None
    low: Float64Array | None = None
    high: Float64Array | None = None
    text: tuple[str, ...] | None = None
    hidden: bool = False
    run: str | None = None
    stamps_s: Float64Array | None = None
    poses: Float64Array | None = None
    hover: str | None = None

    def __post_init__(self) -> None:
        for name in ("x", "y", "values", "low", "high", "stamps_s", "poses"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, tuple):
                array = np.array(value, dtype=np.float64)
                array.flags.writeable = False
                object.__setattr__(self, name, array)


@dataclass(frozen=True, slots=True, kw_only=True)
class Panel:
    """One set of axes: its traces, titles, and how its axes are scaled and marked.

    ``x_from_zero``: the x axis begins at 0 (a histogram of errors, which are >= 0: the
    static figure began at 0 and the page at the least error; a review);
    ``guides_y`` are dotted horizontal lines; ``y_percent`` writes shares as percent;
    ``y_log``: the y axis is logarithmic (``y_from_zero`` is then false);
    ``legend`` says where a static figure puts its legend (``outside``: right of it;
    ``figure``: one legend above the panels, shared by every panel that says so, as an
    interactive page has one);
    ``share_y``: the panel shows the quantity of the panel before it, in its row, on the
    same scale (the axis is titled once, where the panels are drawn together);
    ``categories`` are the places along a category axis, in order, empty ones included
    (default: the traces' categories, in order of appearance).
    """

    traces: tuple[Trace, ...]
    x_title: str
    y_title: str
    title: str = ""
    equal_aspect: bool = False
    x_from_zero: bool = False
    y_from_zero: bool = False
    y_range: tuple[float, float] | None = None
    y_percent: bool = False
    y_log: bool = False
    guides_y: tuple[float, ...] = ()
    legend: Literal["best", "lower right", "outside", "figure"] = "best"
    share_y: bool = False
    categories: tuple[str, ...] = ()

    @property
    def grouped(self) -> bool:
        """Whether traces share a category, and are drawn side by side there, not on it."""
        seen: set[str] = set()
        for trace in self.traces:
            if isinstance(trace.x, tuple):
                if seen & set(trace.x):
                    return True
                seen.update(trace.x)
        return False


@dataclass(frozen=True, slots=True, kw_only=True)
class ColourScale:
    """The one colour bar of a figure: marker ``values`` from ``low`` to ``high`` (viridis)."""

    title: str
    low: float
    high: float


@dataclass(frozen=True, slots=True, kw_only=True)
class FigureSpec:
    """A whole figure: its title, its panels, its size in inches (static).

    The panels are side by side, or in ``rows`` (how many panels each row holds, top
    to bottom; a row's panels share its width equally), or in a grid of ``columns``
    filled row by row, each panel a column wide (the last row's left part filled).

    Raises
    ------
    ValidationError
        When ``rows`` does not hold every panel once, ``columns`` is negative, or
        both are given.
    """

    title: str
    panels: tuple[Panel, ...]
    size_in: tuple[float, float]
    colour_scale: ColourScale | None = None
    rows: tuple[int, ...] = ()
    columns: int = 0

    def __post_init__(self) -> None:
        if self.rows and (sum(self.rows) != len(self.panels) or min(self.rows) < 1):
            msg = f"Expected rows of {counted(len(self.panels), 'panel')} in all, got {self.rows}"
            raise ValidationError(msg)
        if self.columns < 0 or (self.columns and self.rows):
            msg = f"Expected rows or a number of columns >= 0, got rows {self.rows} and "
            msg += f"columns {self.columns}"
            raise ValidationError(msg)

    @property
    def grid(self) -> tuple[int, int]:
        """Return the ``(rows, columns)`` of the grid the panels stand in."""
        n = len(self.panels)
        if self.columns:
            return -(-n // self.columns), min(self.columns, n)
        return (len(self.rows), math.lcm(*self.rows)) if self.rows else (1, n)

    def place(self, k: int) -> tuple[int, int, int]:
        """Return panel ``k``'s row, first column and number of columns in :attr:`grid`."""
        if self.columns:
            return k // self.columns, k % self.columns, 1
        rows = self.rows or (len(self.panels),)
        columns = math.lcm(*rows)
        row = next(r for r in range(len(rows)) if k < sum(rows[: r + 1]))
        span = columns // rows[row]
        return row, (k - sum(rows[:row])) * span, span


#: How far above its whisker's top a bar's label stands, in points (1/72 in): the static
#: figure's offset, and the page's (:func:`bar_label_tops` says from where). The page's
#: labels stood on the whiskers' caps, struck through by them (a review).
BAR_LABEL_GAP_PT = 4.0


def bar_label_tops(trace: Trace, panel: Panel) -> Float64Array:
    """Return where each of ``trace``'s bar labels stands: its whisker's top, else its bar's.

    A bar with no top (a group whose runs all failed: NaN) stands its label at the
    axis's foot: 0 on a linear axis; on a log axis, which has no 0, the panel's least
    positive bar value. WHY: on a log axis both backends drew nothing at 0, so a
    comparison lost the very label ("0/12 ok") saying a group's runs all failed.

    Examples
    --------
    >>> y, high = np.array([0.02, np.nan]), np.array([0.05, np.nan])
    >>> bars = Trace(kind="bar", x=("a", "b"), y=y, high=high)
    >>> panel = Panel(traces=(bars,), x_title="sequence", y_title="APE RMSE [m]")
    >>> bar_label_tops(bars, panel).tolist()
    [0.05, 0.0]
    >>> bar_label_tops(bars, replace(panel, y_log=True)).tolist()
    [0.05, 0.02]
    """
    tops = np.asarray(trace.high if trace.high is not None else trace.y, dtype=np.float64)
    if not panel.y_log:
        return np.nan_to_num(tops)
    return np.where(np.isfinite(tops) & (tops > 0), tops, bar_foot(panel))


def bar_foot(panel: Panel) -> float:
    """Return the least positive value of ``panel``'s bars and whiskers (1.0 if none).

    Where a log axis of bars begins: no bar stands on 0 there.

    Examples
    --------
    >>> bars = Trace(kind="bar", x=("a", "b"), y=np.array([0.0, 2.0]), low=np.array([0.0, 0.5]))
    >>> bar_foot(Panel(traces=(bars,), x_title="", y_title=""))
    0.5
    """
    drawn = [
        np.asarray(v, dtype=np.float64)
        for t in panel.traces
        if t.kind == "bar"
        for v in (t.low, t.y, t.high)
        if v is not None
    ]
    values = np.concatenate(drawn) if drawn else np.empty(0)
    positive = values[np.isfinite(values) & (values > 0)]
    return float(positive.min()) if positive.size else 1.0


def dots_only(trace: Trace, lone: IntpArray) -> bool:
    """Return whether an unmarked line ``trace`` is its ``lone`` points alone: dots.

    ``lone`` is :func:`~robot_msgs.report.figures.lone_points` of the trace. Errors
    that share stamps (drift's lengths from one start, all-pairs RPE) are each a point
    between gaps (:mod:`~robot_msgs.report.results_spec`): both renderers drew them as
    dots but named them by a line in the legend (``res`` of two KITTI 00 drift
    results, seen in a review's screenshots). Such a line is drawn, and named, by dots.

    Examples
    --------
    >>> y = np.array([1.0, np.nan, 2.0])
    >>> dots = Trace(kind="line", x=np.array([0.0, np.nan, 0.0]), y=y)
    >>> dots_only(dots, np.array([0, 2])), dots_only(dots, np.array([0]))
    (True, False)
    """
    if trace.kind != "line" or trace.mark or not lone.size:
        return False
    x = np.asarray(trace.x, dtype=np.float64)
    return bool(lone.size == np.count_nonzero(np.isfinite(x) & np.isfinite(trace.y)))


def _literal(text: str) -> str:
    """Return ``text`` (a name) for a :class:`Trace`'s hover, its braces doubled.

    An algorithm named ``a{y}b`` showed in the hover as "a0.0129b": its ``{y}``
    stood for the point's value (a hunt).

    Examples
    --------
    >>> _literal("a{y}b")
    'a{{y}}b'
    """
    return text.replace("{", "{{").replace("}", "}}")


# --------------------------------------------------------------------------- the data


def _names(result: ReportResult) -> dict[str, str]:
    """Name each run's configuration, by run name: ``orb``, or ``orb 2.0`` among several.

    The figures draw, colour and pool runs by it, as the tables name their rows: runs of
    one algorithm with another version or parameters are not one algorithm's trials. An
    algorithm the runs do not name is ``not stated``, as in the tables.
    """
    names = configuration_names(r.configuration for r in result.report.runs)
    return {r.name: names[r.configuration] for r in result.report.runs}


def _algorithm_looks(result: ReportResult) -> dict[str, tuple[str, int]]:
    """Give each configuration its colour and round, in order of first appearance.

    The same in every figure (:func:`~robot_msgs.report.figures.curve_look`): past eight
    configurations the colours come round, and a figure tells the rounds apart by a
    hatch (bars, boxes) or marks (curves whose dash says something else).
    """
    algorithms = dict.fromkeys(_names(result).values())
    return {a: curve_look(i) for i, a in enumerate(algorithms)}


def _runs_of_sequence(result: ReportResult, sequence: str) -> list[RunEvaluation]:
    return [e for e in result.runs.values() if e.report.sequence == sequence]


def _label(e: RunEvaluation) -> str:
    """Name a run under its algorithm's heading: its trial, and why it failed."""
    failed = "" if e.report.success else f" (FAILED: {e.report.failure})"
    return e.report.name.rsplit("/", 1)[-1] + failed


def _ape(e: RunEvaluation) -> EvaluationResult | None:
    """Return the run's APE translation, which the figures say they draw, or ``None``.

    Not the first metric (what rankings use): an RPE of angles first had its degrees
    drawn as "APE translation error [m]" (a hunt).
    """
    return next(
        (r for r in e.results.values() if r.metric == "ape" and "translation" in r.series), None
    )


def _series(result: EvaluationResult) -> ErrorSeries:
    """Return the translation series of a result (:func:`_ape`, an RPE of translation)."""
    return result.series["translation"]


def _reference_gaps(runs: Sequence[RunEvaluation]) -> list[tuple[float, float]]:
    """Return the first reference's gaps (no error inside), ``(start, end)`` seconds."""
    ref = next((e.reference for e in runs if e.reference is not None), None)
    if ref is None:
        return []
    t, _ = break_gaps(ref.stamps_s, ref.stamps_s)  # a NaN between the two sides of a gap
    k = np.flatnonzero(np.isnan(t))
    return list(zip(t[k - 1].tolist(), t[k + 1].tolist(), strict=True))


def _sequence_t0(runs: Sequence[RunEvaluation]) -> float:
    """Return the time origin of a sequence's figures: its start, else its first estimate."""
    starts = [e.report.sequence_start_s for e in runs if math.isfinite(e.report.sequence_start_s)]
    firsts = [
        float(e.estimate.stamps_s[0]) for e in runs if e.estimate is not None and len(e.estimate)
    ]
    return min(starts or firsts or [0.0])


def _loss_intervals(e: RunEvaluation, t0: float) -> list[tuple[float, float]]:
    """Return a run's tracking losses, seconds since ``t0``; one not recovered runs to the end."""
    end = e.report.sequence_end_s - t0 if math.isfinite(e.report.sequence_end_s) else None
    out = []
    for loss in e.report.losses:
        stop = loss.end_s - t0 if loss.recovered or end is None else max(end, loss.end_s - t0)
        out.append((loss.start_s - t0, stop))
    return out


def _pooled_latencies_ms(result: ReportResult) -> dict[str, tuple[Float64Array, Float64Array]]:
    """Pool the latencies and finite processing times (ms) of each configuration with timings."""
    names = _names(result)
    parts: dict[str, tuple[list[Float64Array], list[Float64Array]]] = {}
    for e in result.runs.values():
        if e.latency_s.size:
            lat, proc = parts.setdefault(names[e.report.name], ([], []))
            lat.append(e.latency_s)
            proc.append(e.processing_s[np.isfinite(e.processing_s)])
    return {
        a: (np.concatenate(lat) * 1e3, np.concatenate(p) * 1e3) for a, (lat, p) in parts.items()
    }


def start_frame_positions(e: RunEvaluation) -> Float64Array:
    """Return the estimate's positions in its first pose's frame, ``(N, 3)`` metres.

    Raises
    ------
    ValidationError
        When the run has no estimate.
    """
    est = e.estimate
    if est is None:
        msg = f"Run {e.report.name} has no estimate to draw in its start frame"
        raise ValidationError(msg)
    start = est.orientations_quat_xyzw[:1]
    return quat_xyzw_rotate(start, est.positions_xyz - est.positions_xyz[0], inverse=True)


# --------------------------------------------------------------------------- the figures


def trajectories_spec(result: ReportResult, sequence: str) -> FigureSpec | None:
    """Draw the aligned estimates over the reference in its widest plane, coloured by APE.

    The plane is :func:`~robot_msgs.report.figures.auto_plane` of the reference (of the
    estimates without one), as ``ape --plot`` picks it: ``xy`` for most robots, ``xz``
    for KITTI's camera frame, whose y points down (the x/y view squashed KITTI 00 into a
    band 20 m tall across 600 m; a review). One panel per algorithm shows its first
    successful trial (else its first: :func:`_shown_trials`); the others are in the
    legend, hidden. Past four panels they wrap into rows of at most four, as even as they
    come (ten made a figure 37 in wide). Point ``k`` of a run is its pose ``k``, and a
    run is drawn at the poses :func:`error_over_time_spec` draws it at
    (:func:`_drawn_poses`: at most :data:`SCREEN_POINTS`, the title says so). The colour
    scale ends at the 99th percentile of all the errors of the runs shown.
    """
    runs = [(e, p) for e in _runs_of_sequence(result, sequence) if (p := _ape(e)) is not None]
    names = _names(result)
    shown = _shown_trials([e for e, _ in runs], names)
    if not shown:
        return None
    primaries = {e.report.name: primary for e, primary in runs}
    errors = np.concatenate([_series(primaries[e.report.name]).errors for e in shown.values()])
    finite = errors[np.isfinite(errors)]
    references = [e.reference for e, _ in runs if e.reference is not None]
    spread = (
        references[0].positions_xyz
        if references
        else np.concatenate([primary.estimate.positions_xyz for _, primary in runs])
    )
    plane = auto_plane(spread)
    a, b = ("xyz".index(c) for c in plane)
    panels = []
    thinned = False
    for algorithm, first in shown.items():
        traces = []
        if first.reference is not None:
            _, ref_xyz = break_gaps(first.reference.stamps_s, first.reference.positions_xyz)
            keep = screen_rows(ref_xyz[:, a], SCREEN_POINTS)
            traces.append(
                Trace(
                    kind="line",
                    x=ref_xyz[keep, a],
                    y=ref_xyz[keep, b],
                    name="reference",
                    group="reference",
                    colour="#9e9e9e",
                    width=1.5,
                )
            )
        for e, primary in (run for run in runs if names[run[0].report.name] == algorithm):
            est = primary.estimate
            drawn = _drawn_poses(_series(primary), hidden=e is not first)
            rows = drawn[np.isfinite(drawn[:, 1]), 1].astype(np.intp)
            thinned |= rows.size < len(est)
            traces.append(
                Trace(
                    kind="markers",
                    x=est.positions_xyz[rows, a],
                    y=est.positions_xyz[rows, b],
                    name=_label(e),
                    group=algorithm,
                    titled=True,
                    size=2.7,
                    values=_series(primary).errors[rows],
                    hidden=e is not first,
                    run=e.report.name,
                    stamps_s=est.stamps_s[rows],
                    poses=rows.astype(np.float64),
                    hover=f"{_literal(e.report.name)}\nstamp {{stamp:.6f}} s\nAPE {{value:.4f}} m\n"
                    f"{plane[0]} {{x:.3f}} m, {plane[1]} {{y:.3f}} m",
                )
            )
        title = f"{algorithm} ({first.report.name.rsplit('/', 1)[-1]})"
        panels.append(
            Panel(
                traces=tuple(traces),
                title=title,
                x_title=f"{plane[0]} [m]",
                y_title=f"{plane[1]} [m]",
                equal_aspect=True,
            )
        )
    top = float(np.percentile(finite, 99)) if finite.size else 1.0
    rows_, columns = _wrapped(len(panels))
    return FigureSpec(
        title=f"{sequence_name(sequence)}: aligned estimates, {plane} view, coloured by APE"
        + (f"\n({THINNED})" if thinned else ""),
        panels=tuple(panels),
        size_in=(3.6 * columns + 0.8, 3.6 * rows_),
        colour_scale=ColourScale(title="APE translation [m]", low=0.0, high=top),
        columns=columns if rows_ > 1 else 0,
    )


#: The most points a trial shown is drawn with, and a trial hidden until chosen in the
#: legend: a page's figure is 1,200 px wide (a panel of four, 280 px). Every pose of
#: every trial of 192 runs made the page 45.6 MB, KITTI 00's trajectories 9.2 MB of it
#: and its error over time 7.1 MB, and headless Chromium drew it in about a minute.
SCREEN_POINTS, HIDDEN_POINTS = 1200, 300
#: What the title of a figure that hides trials says (the static one draws no other).
#: What it says of the others: a static figure, which has no legend to show them, leaves it out.
ONE_TRIAL_OTHERS = "; the page's legend shows the others"
_ONE_TRIAL = "each algorithm's first successful trial{}" + ONE_TRIAL_OTHERS
#: What that title says of the hidden trials: a static figure, which draws none, leaves it out.
THINNED_HIDDEN = f", {HIDDEN_POINTS} hidden"
#: What the title of a figure drawn at fewer points than it has says.
THINNED = (
    f"long runs drawn at about {SCREEN_POINTS:,} points{THINNED_HIDDEN}: each "
    "stretch's least and greatest error; statistics from every pose"
)


def screen_rows(values: Float64Array, most: int) -> IntpArray:
    """Return the rows of ``values`` (N,) a figure draws: about ``most`` where N is more.

    Every row where N <= ``most``; else, in stretches of ``ceil(2 N / most)`` rows, each
    stretch's least and greatest finite value (a peak is drawn, as it would be at every
    point on a screen of ``most / 2`` pixels), every NaN (a line's break) and the finite
    rows beside one (the ends of each piece), and the first and last rows.

    Examples
    --------
    >>> screen_rows(np.array([0.0, 5.0, 1.0, 2.0, 9.0, 3.0, 4.0, 0.5]), 4).tolist()
    [0, 1, 4, 7]
    >>> screen_rows(np.array([0.0, 5.0, np.nan, 2.0, 9.0, 3.0, 4.0, 0.5]), 4).tolist()
    [0, 1, 2, 3, 4, 7]
    """
    n = values.size
    if n <= most:
        return np.arange(n)
    # WHY most // 2 stretches, not ceil(2 N / most) rows each: for an odd ``most`` that
    # rounded to one stretch more (9 values, most 3: two stretches, 6 rows); even: the same.
    size = -(-n // max(most // 2, 1))
    stretches = -(-n // size)
    padded = np.full(stretches * size, np.nan)
    padded[:n] = values
    blocks = padded.reshape(stretches, size)
    finite = np.isfinite(blocks)
    starts = np.arange(stretches) * size
    least = np.where(finite, blocks, np.inf).argmin(axis=1) + starts
    greatest = np.where(finite, blocks, -np.inf).argmax(axis=1) + starts
    some = finite.any(axis=1)
    gap = ~np.isfinite(values)
    beside = gap | np.concatenate([gap[1:], [False]]) | np.concatenate([[False], gap[:-1]])
    kept = [least[some], greatest[some], np.flatnonzero(beside), np.array([0, n - 1])]
    return np.unique(np.concatenate(kept))


def _drawn_poses(series: ErrorSeries, *, hidden: bool) -> Float64Array:
    """Return a run's error series as drawn: ``(M, 3)`` error [m], pose row, stamp [s].

    Broken at its gaps (a NaN row: :func:`~robot_msgs.report.figures.break_gaps`), then
    :func:`screen_rows` of the errors, at most :data:`SCREEN_POINTS` (a hidden trial
    :data:`HIDDEN_POINTS`): the trajectories and the error over time draw a run at the
    same poses, so hovering one shows the pose in the other.
    """
    rows = np.arange(len(series), dtype=np.float64)
    table = np.column_stack([series.errors, rows, series.stamps_s])
    _, broken = break_gaps(series.stamps_s, table)
    return broken[screen_rows(broken[:, 0], HIDDEN_POINTS if hidden else SCREEN_POINTS)]


def _shown_trials(runs: Sequence[RunEvaluation], names: dict[str, str]) -> dict[str, RunEvaluation]:
    """Return each algorithm's trial a figure shows: its first successful one, else its first.

    The others are hidden until chosen in the legend (48 runs of a sequence drawn and
    shaded at once made the error over time unreadable).
    """
    shown: dict[str, RunEvaluation] = {}
    for e in sorted(runs, key=lambda e: (not e.report.success, e.report.trial)):
        shown.setdefault(names[e.report.name], e)
    return shown


#: The most panels side by side in a row of a figure of a panel per algorithm.
_MOST_COLUMNS = 4


def _wrapped(panels: int) -> tuple[int, int]:
    """Return the rows and columns of a figure of a panel per algorithm.

    As few rows as :data:`_MOST_COLUMNS` columns need, filled evenly: five are 3 + 2,
    not 4 + 1.

    Examples
    --------
    >>> _wrapped(3), _wrapped(5), _wrapped(10)
    ((1, 3), (2, 3), (3, 4))
    """
    rows = -(-panels // _MOST_COLUMNS)
    return rows, -(-panels // rows)


def error_over_time_spec(result: ReportResult, sequence: str) -> FigureSpec | None:
    """APE over time of every run; each run's tracking losses and the reference's gaps shaded.

    Each algorithm has its colour and each of its trials a dash (with its colour, every
    trial is told apart); past eight algorithms the colours come round again
    (:func:`~robot_msgs.report.figures.curve_look`), and a colour's runs take the dashes
    in turn, the ninth algorithm's after the first's (its trial 1 was drawn as the
    first's; a review), and past the six dashes the dashes again with marks (trial 5
    of one algorithm was its trial 1; a review). Every shaded interval has a legend
    entry (a run's losses, the reference's gaps). Lines break at gaps in the series.
    Each algorithm's trial the trajectories show is drawn (:func:`_shown_trials`), the
    others and their losses are hidden until chosen in the legend: 48 runs drawn and
    shaded at once were unreadable. A run is drawn at :func:`_drawn_poses`.
    """
    runs = [
        e for e in _runs_of_sequence(result, sequence) if _ape(e) is not None or e.report.losses
    ]
    apes = {e.report.name: a for e in runs if (a := _ape(e)) is not None}
    if not apes:
        return None
    looks, names = _algorithm_looks(result), _names(result)
    t0 = _sequence_t0(runs)
    # KITTI estimates without a times file are stamped by frame index: said as frames.
    frames = all(a.estimate.stamps_are_frames for a in apes.values())
    when = "frame {x:.0f}" if frames else "t = {x:.3f} s (stamp {stamp:.6f} s)"
    shown = _shown_trials([e for e in runs if e.report.name in apes], names)
    traces = []
    thinned = False
    for i, e in enumerate(runs):
        algorithm = names[e.report.name]
        colour = looks[algorithm][0]
        hidden = algorithm in shown and shown[algorithm] is not e
        # Its colour's k-th run: the k-th dash, and past the dashes marks (the fifth trial
        # of one algorithm was drawn as its first, solid in its colour; a review).
        trial = sum(looks[names[r.report.name]][0] == colour for r in runs[:i])
        dash, mark = DASHES[trial % len(DASHES)], MARKS[trial // len(DASHES) % len(MARKS)]
        if e.report.name in apes:
            s = _series(apes[e.report.name])
            drawn = _drawn_poses(s, hidden=hidden)
            thinned |= np.isfinite(drawn[:, 1]).sum() < len(s)
            traces.append(
                Trace(
                    kind="line",
                    x=drawn[:, 2] - t0,
                    y=drawn[:, 0],
                    name=_label(e),
                    group=algorithm,
                    titled=True,
                    colour=colour,
                    dash=dash,
                    mark=mark,
                    width=1.1,
                    hidden=hidden,
                    run=e.report.name,
                    poses=drawn[:, 1],
                    stamps_s=drawn[:, 2],
                    hover=f"{_literal(e.report.name)}\n{when}\nAPE {{y:.4f}} m",
                )
            )
        for start, stop in _loss_intervals(e, t0):
            name = f"{_label(e)}: tracking lost"
            traces.append(
                Trace(
                    kind="span",
                    x=np.array([start, stop]),
                    name=name,
                    group=algorithm,
                    titled=True,
                    colour=colour,
                    alpha=0.15,
                    hidden=hidden,
                    hover=f"{_literal(name)}\n{start:.2f} s .. {stop:.2f} s",
                )
            )
    for start, stop in _reference_gaps(runs):
        name = "no reference (gap in the ground truth: no error can be computed)"
        traces.append(
            Trace(
                kind="span",
                x=np.array([start - t0, stop - t0]),
                name=name,
                group="reference",
                colour="#7f7f7f",
                alpha=0.25,
                hatched=True,
                hover=f"{name}\n{start - t0:.2f} s .. {stop - t0:.2f} s",
            )
        )
    panel = Panel(
        traces=tuple(traces),
        x_title=time_label(frames=frames, since="sequence start"),
        y_title="APE translation error [m]",
        y_from_zero=True,
        legend="outside",
    )
    what = over_time("APE", frames=frames)
    some = len(shown) < len(apes)
    # An algorithm with no successful trial shows its first: not 'its first successful'.
    else_first = "" if all(e.report.success for e in shown.values()) else ", else its first"
    # The static figure's legend lists what it draws: 48 runs' entries made it 11 in
    # high beside four lines; the page's lists them all (page_legend_px).
    listed = [t for t in traces if not t.hidden]
    return FigureSpec(
        title=f"{sequence_name(sequence)}: {what} (shaded: tracking lost; hatched: no reference)"
        + ("\n(" if some or thinned else "")
        + (_ONE_TRIAL.format(else_first) if some else "")
        + ("; " if some and thinned else "")
        + (THINNED if thinned else "")
        + (")" if some or thinned else ""),
        panels=(panel,),
        size_in=(11.0, max(3.6, _legend_height_in(listed, title_lines=1 + (some or thinned)))),
    )


def _entries(traces: Sequence[Trace]) -> int:
    """Count the legend entries of ``traces``: one per named ``(group, name)``."""
    return len({(t.group, t.name) for t in traces if t.name})


def _entries_panel(
    traces: list[Trace], x_title: str, y_title: str, high_in: float, title_lines: int
) -> tuple[Panel, float, bool]:
    """Return a bar or box panel from zero, the figure's height (in), and legend beside.

    Past :data:`_ENTRIES_OVER_BARS` entries the legend covered the last bars (a hunt): it
    stands beside the panel, and the figure grows to hold it. The page's legend stands
    beside it always, and the page draws the figure as tall as that needs
    (:func:`page_legend_px`).
    """
    many = len(traces) > _ENTRIES_OVER_BARS
    panel = Panel(
        traces=tuple(traces),
        x_title=x_title,
        y_title=y_title,
        y_from_zero=True,
        legend="outside" if many else "best",
    )
    high = max(high_in, _legend_height_in(traces, title_lines=title_lines))
    return panel, high if many else high_in, many


def _legend_height_in(traces: Sequence[Trace], *, title_lines: int) -> float:
    """Return the height a static figure needs for the legend of ``traces`` beside a panel.

    Measured on matplotlib's legends of 7 pt text: 0.152 in an entry and 0.03 in of
    frame; the title takes 0.3 in a line and the figure's edges 0.3 in. At 3.6 in, a
    legend of 24 runs ran off the figure's foot (a review). The page's legend, taller,
    sets the page's height alone (:func:`page_legend_px`): the static figure of twelve
    algorithms' 24 runs was 8 in high for it, its legend in the upper half (a review).
    """
    return 0.155 * _entries(traces) + 0.3 * title_lines + 0.3


def page_legend_px(traces: Sequence[Trace]) -> int:
    """Return the height (px) a page's figure needs for the legend of ``traces`` beside a panel.

    Measured on plotly.js's legends of 11 px text: 19 px an entry, 21 px a titled group's
    heading, 10 px between groups and 30 px of frame and spare, in the plot's height (the
    figure's less 110 px of margins): twelve algorithms' legend scrolled, the twelfth
    entry below its fold (a hunt).
    """
    entries = _entries(traces)
    groups = {t.group for t in traces if t.name}
    headings = len({t.group for t in traces if t.name and t.titled})
    return 19 * entries + 21 * headings + 10 * max(0, len(groups) - 1) + 30 + 110


#: The page draws a figure of ``h`` inches ``h`` times this many pixels high (and adds
#: its titles' lines, and grows for a legend beside one panel: :func:`page_legend_px`),
#: in a page 1,200 px wide.
PAGE_PX_PER_IN = 120


def rpe_box_spec(result: ReportResult, sequence: str) -> FigureSpec | None:
    """RPE translation per delta (the categories), one box per algorithm, its trials pooled.

    Past eight algorithms the colours come round hatched (the ninth's boxes were the
    first's; a review). Successful runs only; the deltas are written as the figures'
    axes write them (``0.5 s``, ``1 frame``).
    """
    runs = [
        e
        for e in _runs_of_sequence(result, sequence)
        if e.report.success and any("translation" in r.series for r in e.rpe_results.values())
    ]
    if not runs:
        return None
    looks, names = _algorithm_looks(result), _names(result)
    traces = []
    for algorithm in dict.fromkeys(names[e.report.name] for e in runs):
        colour, round_ = looks[algorithm]
        deltas: list[str] = []
        pooled = [np.empty(0)]
        for e in (e for e in runs if names[e.report.name] == algorithm):
            for rpe in e.rpe_results.values():
                if "translation" not in rpe.series:  # an RPE of angles: not metres
                    continue
                one = next(s for s in rpe.comparison.signals if s.name == "translation")
                errors = _series(rpe).errors
                pooled.append(errors[np.isfinite(errors)])
                said = (
                    one.name if one.delta is None else delta_words(one.delta, one.delta_unit or "")
                )
                deltas += [said] * pooled[-1].size
        traces.append(
            Trace(
                kind="box",
                x=tuple(deltas),
                y=np.concatenate(pooled),
                name=algorithm,
                group=algorithm,
                colour=colour,
                hatch=HATCHES[round_ % len(HATCHES)],
                alpha=0.5,
                hover=f"{_literal(algorithm)}, delta {{x}}\nRPE {{y:.4f}} m",
            )
        )
    n_deltas = len(dict.fromkeys(x for t in traces for x in t.x))
    panel, high, many = _entries_panel(traces, "delta", "RPE translation error [m]", 3.4, 1)
    return FigureSpec(
        title=(
            f"{sequence_name(sequence)}: RPE translation per delta (all pairs, successful runs "
            "pooled)"
        ),
        panels=(panel,),
        size_in=(max(3.2 * n_deltas, 6.0) + (1.0 if many else 0.0), high),
    )


#: The most legend entries a figure of boxes or bars holds inside its panel: twenty
#: algorithms' legend covered the last four boxes and ran past the figure's foot, and
#: over the bars of the comparison (a hunt). Past it, beside the panel.
_ENTRIES_OVER_BARS = 10


#: The most points of a latency CDF's curve (:func:`_ecdf`): a share to 1/2000.
_CDF_STEPS = 2000


def _ecdf(values: Float64Array, *, steps: int = _CDF_STEPS) -> tuple[Float64Array, Float64Array]:
    """Return the ECDF's points: sorted ``values`` (N,) and the share at or below each.

    Past ``steps`` values only the order statistics where the share crosses each
    ``1 / steps`` are kept, and the first: every point is exactly a corner of the ECDF's
    steps, and the curve drawn through them in steps is less than ``1 / steps`` below
    the ECDF anywhere (less than a pixel of a page's figure). Two points are at most
    ``1 / steps + 1 / N`` apart in share: 2 frames of 3000, not 1/2000.
    A report of 192 runs pooled ~10^5 frames an algorithm: every frame's point made
    the latency CDF 14.2 of the page's 57.9 MB.

    Examples
    --------
    >>> x, y = _ecdf(np.array([3.0, 1.0, 2.0, 4.0]), steps=2)
    >>> x.tolist(), y.tolist()
    ([1.0, 2.0, 4.0], [0.25, 0.5, 1.0])
    """
    x = np.sort(values)
    n = x.size
    if n <= steps:
        return x, np.arange(1, n + 1) / n
    # The k-th share j / steps is first reached at 1-based rank ceil(j n / steps).
    ranks = np.unique(np.concatenate([[1], -(-np.arange(1, steps + 1) * n // steps)]))
    return x[ranks - 1], ranks / n


def latency_cdf_spec(result: ReportResult) -> FigureSpec | None:
    """Latency CDF per algorithm (all its runs pooled), processing dashed, p50 and p95 marked.

    Past eight algorithms the colours come round with marks along the curves (the
    dashes say latency or processing): the ninth's curves were the first's (a review).
    Its p50 and p95 are marked in the curves' mark, a circle where they have none (the
    ninth's dots were the first's, blue circles; a review): the marks leave the circle
    to the first round.
    """
    looks = _algorithm_looks(result)
    traces = []
    for algorithm, (latency, processing) in _pooled_latencies_ms(result).items():
        colour, round_ = looks[algorithm]
        mark = _CDF_MARKS[round_ % len(_CDF_MARKS)]
        curves: tuple[tuple[Float64Array, str, Dash, float], ...] = (
            (latency, "acquisition to available", "solid", 1.6),
            (processing, "processing", "dash", 1.0),
        )
        for times, what, dash, width in curves:
            if not times.size:
                continue
            x, y = _ecdf(times)
            p50, p95 = np.percentile(times, [50.0, 95.0])
            traces.append(
                Trace(
                    kind="step",
                    x=x,
                    y=y,
                    group=algorithm,
                    colour=colour,
                    dash=dash,
                    mark=mark,
                    width=width,
                    name=f"{algorithm}: {what} (p50 {p50:.0f} ms, p95 {p95:.0f} ms)",
                    hover=f"{_literal(algorithm)} {what}\n{{x:.1f}} ms: {{y:.1%}} of frames",
                )
            )
        traces.append(
            Trace(
                kind="markers",
                x=np.percentile(latency, [50.0, 95.0]),
                y=np.array([0.5, 0.95]),
                group=algorithm,
                colour=colour,
                mark=mark or "circle",
                size=6.0,
                text=("p50", "p95"),
                hover=f"{_literal(algorithm)}: acquisition to available\n{{text}} {{x:.1f}} ms",
            )
        )
    if not traces:
        return None
    longest = max(len(t.name) for t in traces)
    many = _entries(traces) > _ENTRIES_INSIDE or longest > _LONGEST_INSIDE
    panel = Panel(
        traces=tuple(traces),
        x_title="time [ms]",
        y_title="share of frames",
        y_range=(0.0, 1.02),
        y_percent=True,
        guides_y=(0.5, 0.95),
        # Past six entries, beside the panel on a figure as tall as it: inside, twelve
        # algorithms' 24 filled the figure, over the title, and the curves had 60 px.
        # So past the longest entry that leaves the curves their room: 'ORB-SLAM3
        # stereo-inertial with loop closing and Atlas maps: processing (p50 ...)' made
        # the legend two thirds of the panel's width, over the curves (a hunt).
        legend="outside" if many else "lower right",
    )
    return FigureSpec(
        # Two lines: on one, the title was wider than the 9 in figure and lost its ends.
        title="Latency CDF, all runs of each algorithm pooled\n(solid: acquisition to estimate, "
        "queueing included; dashed: processing; marks: p50 and p95)",
        panels=(panel,),
        size_in=(11.0, max(3.6, _legend_height_in(traces, title_lines=2))) if many else (9.0, 3.6),
    )


#: Marks along the latency CDF's curves by their colour's round: none, then not the
#: circle, which marks the first round's p50 and p95.
_CDF_MARKS: tuple[Mark, ...] = tuple(m for m in MARKS if m != "circle")
#: The most legend entries the latency CDF holds inside its panel (three algorithms'),
#: and the most characters of each: about 3.9 pt a character at 7 pt, 64 are half the
#: 9 in figure's panel, in the lower right, which the curves have mostly left (the
#: example's longest, 'vio_ekf: acquisition to available (p50 82 ms, p95 164 ms)',
#: is 57; an algorithm's name of up to 19 characters).
_ENTRIES_INSIDE, _LONGEST_INSIDE = 6, 64


def comparison_spec(result: ReportResult) -> FigureSpec | None:
    """Per-algorithm APE statistic across sequences: median bar, min-max whiskers, runs succeeded.

    The statistic is the report's (``--statistic``, RMSE by default: :func:`accuracy_label`).
    A group whose successful runs have no APE gets no bar, but its label. Past eight
    algorithms the colours come round hatched (the ninth's bars were the first's; a
    review).
    """
    groups = [g for g in result.report.groups if g.accuracy is not None]
    if not any(g.accuracy is not None and "translation" in g.accuracy.stats for g in groups):
        return None  # an APE of angles alone: no bar in metres to draw
    looks = _algorithm_looks(result)
    label, unit = accuracy_label(result.report)
    labels = configuration_names(g.configuration for g in result.report.groups)
    traces = []
    for algorithm in dict.fromkeys(labels[g.configuration] for g in groups):
        mine = [g for g in groups if labels[g.configuration] == algorithm]
        stats = [g.accuracy.stats.get("translation") if g.accuracy else None for g in mine]
        picked = [
            (s.median, s.min, s.max) if s is not None and s.n else (np.nan,) * 3 for s in stats
        ]
        median, low, high = np.array(picked, dtype=np.float64).reshape(-1, 3).T
        colour, round_ = looks[algorithm]
        traces.append(
            Trace(
                kind="bar",
                x=tuple(sequence_name(g.sequence) for g in mine),
                y=median,
                low=low,
                high=high,
                text=tuple(f"{g.n_runs - g.n_failed}/{g.n_runs} ok" for g in mine),
                name=algorithm,
                group=algorithm,
                colour=colour,
                hatch=HATCHES[round_ % len(HATCHES)],
                alpha=0.8,
                hover=f"{_literal(algorithm)}, {{x}}\nmedian {_literal(label)} {{y:.4f}} "
                f"{_literal(unit)}\n{{text}} (runs succeeded)",
            )
        )
    n_bars = len(groups)
    panel, high, _ = _entries_panel(traces, "sequence", f"{label} [{unit}]", 3.6, 2)
    # Medians more than ten-fold apart (KITTI's metres beside TUM's centimetres: 3.75 m
    # and 0.017 m in a sweep of 192 runs) left the small bars unreadable on a linear axis.
    medians = np.concatenate([t.y for t in traces])
    medians = medians[np.isfinite(medians) & (medians > 0)]
    log = medians.size > 1 and medians.max() > _LOG_ABOVE * medians.min()
    if log:
        panel = replace(panel, y_log=True, y_from_zero=False)
    return FigureSpec(
        title=f"Per-algorithm accuracy across sequences{', log scale' if log else ''}\n"
        f"({label} of the successful runs: median, min-max; label: runs succeeded)",
        panels=(panel,),
        size_in=(min(max(5.0, 0.8 * n_bars + 3), _WIDEST_IN), high),
    )


def repeatability_spec(result: ReportResult, sequence: str) -> FigureSpec | None:
    """Without a reference: every run in its own start frame, one panel per algorithm.

    Shows whether repeated runs agree, which is not accuracy; each run's last pose is
    marked. Past four panels they wrap into rows, as the trajectories do (ten
    algorithms made a figure 38.4 in wide).
    """
    runs = [
        e
        for e in _runs_of_sequence(result, sequence)
        if e.estimate is not None and e.reference is None
    ]
    if not runs:
        return None
    names = _names(result)
    panels = []
    for algorithm in dict.fromkeys(names[e.report.name] for e in runs):
        trials = [e for e in runs if names[e.report.name] == algorithm]
        traces = []
        for k, e in enumerate(trials):
            xyz = start_frame_positions(e)
            # Past eight trials the colours come round (curve_look) one dash on: trial 9
            # was drawn as trial 1, PALETTE[8 % 8] and DASHES[8 % 4] (a review).
            colour, round_ = curve_look(k)
            traces.append(
                Trace(
                    kind="line",
                    x=xyz[:, 0],
                    y=xyz[:, 1],
                    name=e.report.name.rsplit("/", 1)[-1]
                    + ("" if e.report.success else " (failed)"),
                    group=algorithm,
                    titled=True,
                    colour=colour,
                    # The first four dashes (a colour's rounds are four): distinct to 32.
                    dash=DASHES[(k + round_) % 4],
                    mark_end=True,
                    hover=f"{_literal(_label(e))}\nx {{x:.3f}} m, y {{y:.3f}} m",
                )
            )
        rep = next((e.report.repeatability for e in trials if e.report.repeatability), None)
        spread = f", endpoint spread {rep.endpoint_spread_m:.3f} m" if rep else ""
        panels.append(
            Panel(
                traces=tuple(traces),
                title=f"{algorithm}{spread}",
                x_title="x in start frame [m]",
                y_title="y in start frame [m]",
                equal_aspect=True,
            )
        )
    rows, columns = _wrapped(len(panels))
    return FigureSpec(
        title=(
            f"{sequence_name(sequence)}: no reference - do repeated runs agree? (this is not "
            "accuracy)"
        ),
        panels=tuple(panels),
        size_in=(3.8 * columns + 0.4, 3.8 * rows),
        columns=columns if rows > 1 else 0,
    )


#: The widest static figure of bars: 0.8 in a bar made 36 (twelve algorithms on three
#: sequences) a figure 31.8 in (3,180 px) wide, its text a third of its size on a page.
_WIDEST_IN = 16.0
#: The comparison's bars go on a log axis when their medians are more than this many
#: times apart: a linear axis drew the smaller at under a tenth of the larger's height.
_LOG_ABOVE = 10.0
