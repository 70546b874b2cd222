"""The figure of ``robot-msgs res``, described once: saved results' errors side by side.

:func:`results_spec` builds a :class:`~robot_msgs.report.figure_spec.FigureSpec` of five
panels (error over time and over distance; box, violin and histogram; drift results a
sixth, their rotation boxed per segment length) from saved results;
:func:`robot_msgs.report.plots.results_figure` draws it as one figure (``res --plot``),
:func:`robot_msgs.report.interactive.results_plots` as an interactive one per panel
(``res --html``). A module of its own beside
:mod:`~robot_msgs.report.figure_spec`, whose builders read a run report, not saved
results.
"""

from __future__ import annotations

import math
from functools import partial
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.signal import ErrorSeries
from robot_msgs.errors import FormatError
from robot_msgs.report.figure_spec import DASHES, FigureSpec, Panel, Trace, _literal
from robot_msgs.report.figure_text import legend_names, over_time
from robot_msgs.report.figures import (
    break_gaps,
    curve_look,
    drawn_at,
    error_time_label,
    signal_label,
    signal_words,
)
from robot_msgs.report.saved_results import error_distances_m

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import Signal
    from robot_msgs.typing import Float64Array

__all__ = ["RESULTS_PANELS", "results_spec"]

#: What each panel of :func:`results_spec` shows, in order (the page's figure kinds); the
#: sixth, the rotation boxed per segment length, only for results that hold one
#: (:data:`_ROTATION_OF`).
RESULTS_PANELS = (
    "error_over_time",
    "error_over_distance",
    "box",
    "violin",
    "histogram",
    "rotation_box",
)
#: A drift protocol's rotation, boxed per segment length beside its translation: the KITTI
#: devkit plots r_err beside t_err per length (``evaluate_odometry.cpp``'s ``rl`` and
#: ``tl``); ``res --plot`` boxed a KITTI result's translation alone. rpg's translation (m)
#: gets rpg's rotation per metre: its ``analyze_trajectories.py``, which compares
#: algorithms as ``res`` compares results, boxes ``rel_rot_deg_per_m`` per distance beside
#: the translation (``_trans_rot_error``, and the overall odometry errors), not the
#: single-trajectory script's ``rel_yaw`` (``yaw_world_deg``, the yaw about world z).
_ROTATION_OF = {"translation_pct": "rotation_deg_per_m", "translation": "rotation_deg_per_m"}
_BINS = 40
_LARGEST = float(np.finfo(np.float64).max)


def _bin_edges(finite: Float64Array, n: int) -> Float64Array:
    """Return ``n`` bins' ``n + 1`` edges, increasing, from the least value to the largest.

    NumPy's edges (:func:`numpy.histogram_bin_edges`, ``lo`` to ``hi`` or ``x - 0.5`` to
    ``x + 0.5`` for one value ``x``), computed at a power of two's scale so a span past
    float64 (``-1e308`` to ``1e308``) neither overflows nor warns; a span too narrow for
    ``n`` distinct edges (``1.0`` to ``1.0000000000000002``, ``-1e17`` alone) is widened
    about its middle to ``4 n`` float spacings (NumPy raised "Too many bins for data
    range"; a hunt). Values all >= 0 (errors) have edges >= 0, and one such value ``x``
    has them from 0 to ``2 x`` (0 to 1 for 0): NumPy's ``x - 0.5`` put the axis of
    errors all 0 at -0.5, and of errors all 0.3 m at -0.2 m, where none can be.

    >>> _bin_edges(np.array([-1e308, 1e308]), 4).tolist()
    [-1e+308, -5e+307, 0.0, 5e+307, 1e+308]
    >>> _bin_edges(np.array([0.25]), 4).tolist(), _bin_edges(np.array([0.0]), 4).tolist()
    ([0.0, 0.125, 0.25, 0.375, 0.5], [0.0, 0.25, 0.5, 0.75, 1.0])
    >>> edges = _bin_edges(np.array([-1e17]), 40)
    >>> bool(edges[0] <= -1e17 <= edges[-1] and (np.diff(edges) > 0).all())
    True
    """
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    floor = -_LARGEST if lo < 0.0 else 0.0
    if lo == hi:
        lo, hi = (lo - 0.5, hi + 0.5) if lo < 0.0 else (0.0, min(2.0 * hi, _LARGEST) or 1.0)
    edges = _linspace(lo, hi, n)
    if (edges[1:] > edges[:-1]).all():
        return edges
    width = 4 * n * math.ulp(max(abs(lo), abs(hi)))
    middle = lo / 2 + hi / 2
    lo = min(max(middle - width / 2, floor), _LARGEST - width)
    return _linspace(lo, lo + width, n)


def _linspace(lo: float, hi: float, n: int) -> Float64Array:
    """Return :func:`numpy.linspace` ``(lo, hi, n + 1)``, computed at a power of two's scale.

    Scaling by a power of two is exact, so the edges are NumPy's wherever its own
    arithmetic stays in float64's range (the subnormals aside).
    """
    _, exponent = math.frexp(max(abs(lo), abs(hi)))
    scaled = np.linspace(math.ldexp(lo, -exponent), math.ldexp(hi, -exponent), n + 1)
    return np.ldexp(scaled, exponent)


_FEW_REPEATED = 0.05
"""The share of repeated or backward stamps up to which a series is still a line."""


def _each_alone(x: Float64Array, values: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Insert a NaN after every row, so that a line draws each point alone (a dot).

    >>> x, v = _each_alone(np.array([0.0, 0.0, 1.0]), np.array([1.0, 2.0, 3.0]))
    >>> v.tolist()[::2], bool(np.isnan(v[1::2]).all())
    ([1.0, 2.0, 3.0], True)
    """
    after = np.arange(1, len(x))
    return np.insert(x, after, np.nan), np.insert(values, after, np.nan, axis=0)


def _shared_label(signals: Sequence[Signal]) -> str:
    """Name the error axis by what all ``signals`` share (one unit, checked before).

    Their label when it is one; else without the parameters (RPEs over 1 frame and
    over 1 m, or an RPE and an APE, are all "translation error [m]"); else the unit
    alone. WHY: the first result's label was every result's ("over 1 frame" beside
    RPEs over 1 m, "full transformation error" beside evo's ``rot_part``).

    >>> from robot_msgs.compare import Signal
    >>> f = Signal.of("translation", "m", [0.1], stamps_s=[0.0], delta=1.0, delta_unit="f")
    >>> ape = Signal.of("translation", "m", [0.1], stamps_s=[0.0])
    >>> _shared_label([f, f]), _shared_label([f, ape])
    ('translation error over 1 frame [m]', 'translation error [m]')
    """
    for parameters in (True, False):
        labels = {signal_label(s, parameters=parameters) for s in signals}
        if len(labels) == 1:
            return labels.pop()
    unit = signals[0].unit if signals else ""
    return f"error [{unit}]" if unit else "error"


def _length_signals(result: EvaluationResult, first: Signal | None) -> list[Signal]:
    """Return ``result``'s signals of ``first``'s quantity at a segment length, by length.

    A drift result's (``translation@7.58m``, ..., or KITTI's ``translation_pct@100m``, ...
    after the pooled ``translation_pct``); none for an APE or RPE, or a summary.
    """
    if first is None:
        return []
    same = [
        s
        for s in result.comparison.signals
        if s.quantity == first.quantity and s.length_m is not None and s.series is not None
    ]
    return sorted(same, key=lambda s: s.length_m or 0.0)


def _length_words(length_m: float) -> str:
    """Name a segment length as the axis does: ``7.58 m`` (:func:`signal_words`'s ``:g``)."""
    return f"{length_m:g} m"


def _segment_lengths(
    results: Sequence[EvaluationResult], firsts: Sequence[Signal | None]
) -> tuple[str, ...] | None:
    """Return the segment lengths the boxes stand at, shortest first, or None.

    None unless every result with a signal holds its quantity at segment lengths (drift
    results, one or several): results of other kinds are boxed at their names, as
    before. WHY: a drift result's boxes were its first signal's alone (7.58 m of rpg's
    five lengths, 100 m of KITTI's eight), where rpg_trajectory_evaluation boxes each
    length (a user walk).
    """
    held = [(r, f) for r, f in zip(results, firsts, strict=True) if f is not None]
    every = [_length_signals(r, f) for r, f in held]
    if not held or not all(every):
        return None
    lengths = sorted({s.length_m for signals in every for s in signals if s.length_m})
    # Each words once: two lengths said alike (12345.67 and 12345.68 m, both "12345.7 m"
    # as the labels say them) were two categories of one name, one of them empty.
    return tuple(dict.fromkeys(_length_words(m) for m in lengths))


def _rotation(result: EvaluationResult, first: Signal | None) -> Signal | None:
    """Return ``result``'s signal of the rotation beside ``first`` (:data:`_ROTATION_OF`)."""
    quantity = _ROTATION_OF.get(first.quantity) if first is not None else None
    return next((s for s in result.comparison.signals if s.quantity == quantity), None)


def _by_length(
    result: EvaluationResult, first: Signal | None
) -> tuple[tuple[str, ...], Float64Array]:
    """Return each finite error of ``result``'s segment lengths and its length's words."""
    at: list[str] = []
    errors = [np.zeros(0)]
    for signal in _length_signals(result, first):
        values = signal.series.errors if signal.series is not None else np.zeros(0)
        errors.append(values[np.isfinite(values)])
        at += [_length_words(signal.length_m or 0.0)] * errors[-1].size
    return tuple(at), np.concatenate(errors)


def results_spec(
    named: Sequence[tuple[str, EvaluationResult]],
    *,
    labels: Sequence[str] | None = None,
    distances: Sequence[Float64Array | None] | None = None,
) -> FigureSpec:
    """Describe saved results side by side: error over time and distance, box, violin, histogram.

    Each result's first signal, named ``labels`` (default
    :func:`~robot_msgs.report.figure_text.legend_names` of the paths) and drawn in one
    colour across the panels, its path and its signal's own label (with its parameters:
    the axes say only what all share) in the hover text. Time is seconds (or frames)
    since the result's first error, lines broken at gaps
    (:func:`~robot_msgs.report.figures.break_gaps`). Distance is the reference path
    travelled to each error's pose: ``distances``, one ``(N,)`` array (metres) or None
    per result, default :func:`~robot_msgs.report.saved_results.error_distances_m`; a
    result without is named ``(no distances)`` in that panel and has no line there.
    Boxes (whiskers 1.5 IQR) and violins (smallest to largest error) stand at their
    result's name; drift results' at each segment length of their first signal's
    quantity (``7.58 m``, ..., as rpg_trajectory_evaluation boxes them), the results side
    by side there and named in the figure's legend; KITTI's and rpg's have their rotation
    (deg/m) boxed so too, in a sixth panel (:data:`_ROTATION_OF`). The histograms share 40
    bins over all the results' errors, so their heights compare (each over its own range, a
    result's bins were narrower than another's and its counts looked smaller beside
    them; a review). The panels are in :data:`RESULTS_PANELS` order, in rows of two and
    three (six: rows of two and four).

    Raises
    ------
    FormatError
        The results' first signals have different units (they cannot share an axis).
    """
    # A result without signals (a Comparison may hold none) is drawn as a summary is.
    firsts = [next(iter(result.comparison.signals), None) for _, result in named]
    held = [signal for signal in firsts if signal is not None]
    units = {signal.unit for signal in held}
    if len(units) > 1:
        said = ", ".join(sorted(unit or "unit-less" for unit in units))  # as evo's titles
        msg = f"the results are in different units ({said}); plot results of one unit"
        raise FormatError(msg)
    names = list(labels) if labels is not None else legend_names([p for p, _ in named])
    label = _shared_label(held)
    unit = f" {held[0].unit}" if held and held[0].unit else ""
    panels: tuple[list[Trace], ...] = ([], [], [], [], [])
    every = [s.series.errors for s in held if s.series is not None]
    pooled = np.concatenate(every) if every else np.zeros(0)
    bins = _bin_edges(pooled[np.isfinite(pooled)], _BINS)
    by_time, over_distance, box, violin, histogram = panels
    lengths = _segment_lengths([r for _, r in named], firsts)
    turns = [_rotation(r, f) for (_, r), f in zip(named, firsts, strict=True)]
    turned = lengths is not None and _segment_lengths([r for _, r in named], turns) is not None
    rotation_box: list[Trace] = []
    for k, ((path, result), signal, name) in enumerate(zip(named, firsts, names, strict=True)):
        # Past eight results, the colours again with another line style (run_9 was
        # drawn as run_1; a hunt).
        colour, style = curve_look(k)
        dash = DASHES[style]
        series = signal.series if signal is not None else None
        # The hover says this result's own signal, parameters too: the axis's shared label
        # ("translation error [m]") said nothing of RPE over 1 frame beside over 1 m.
        own = _literal(signal_label(signal) if signal is not None else label)
        if series is None:  # a summary, or no signal: nothing to draw but its name
            series, distance = ErrorSeries(stamps_s=np.zeros(0), errors=np.zeros(0)), None
        elif distances is None:
            distance = error_distances_m(path, result, series)
        else:
            distance = distances[k]
        t0 = series.stamps_s[0] if len(series) else 0.0
        rows = np.arange(len(series), dtype=np.float64)
        columns = np.column_stack([series.errors, rows, series.stamps_s])
        t, drawn = break_gaps(series.stamps_s - t0, columns)
        # Errors sharing stamps (drift's lengths from one start, all-pairs RPE) are points,
        # as ape/rpe/drift --plot draw them: a line ran up and down through each start. A
        # few repeated or backward stamps (evo's V102 zip: 4 of 798) break a line there
        # alone: they had turned the whole series into dots. WHY a share, not errors a
        # stamp: fr1_xyz's all-pairs RPE over 1 m has 1.29 errors a stamp (147 of 652
        # repeated), and "two or more a stamp" drew it as a comb of lines.
        repeated = np.count_nonzero(np.diff(series.stamps_s) <= 0)
        apart = repeated > _FEW_REPEATED * len(series)
        if apart:
            t, drawn = _each_alone(t, drawn)
        else:
            back = np.flatnonzero(t[1:] <= t[:-1]) + 1  # NaN (a gap) compares False
            t, drawn = np.insert(t, back, np.nan), np.insert(drawn, back, np.nan, axis=0)
        by_time.append(
            Trace(
                kind="line",
                x=t,
                y=drawn[:, 0],
                name=name,
                colour=colour,
                dash=dash,
                width=1.0,
                poses=drawn[:, 1],
                stamps_s=drawn[:, 2],
                hover=f"{_literal(path)}\nstamp {{stamp:.6f}}\n{own}: {{y:.4g}}",
            )
        )
        if distance is None or distance.size != len(series):
            none = np.zeros(0)
            over_distance.append(
                Trace(
                    kind="line",
                    x=none,
                    y=none,
                    name=f"{name} (no distances)",
                    colour=colour,
                    dash=dash,
                )
            )
        else:
            order = np.argsort(distance, kind="stable")
            along, errors = distance[order], series.errors[order]
            if apart:
                along, errors = _each_alone(along, errors)
            else:
                # WHY: a gap in time was a break over time and a straight line over
                # distance (fr2_desk ORB's 40 s without poses: a line across 2 m).
                along, errors = break_gaps(along, errors, by=series.stamps_s[order])
            over_distance.append(
                Trace(
                    kind="line",
                    x=along,
                    y=errors,
                    name=name,
                    colour=colour,
                    dash=dash,
                    width=1.0,
                    hover=f"{_literal(path)}\n{{x:.3f}} m along the reference\n{own}: {{y:.4g}}",
                )
            )
        finite = series.errors[np.isfinite(series.errors)]
        if lengths is None:
            at: tuple[str, ...] = (name,) * finite.size
            boxed, hover = finite, f"{_literal(path)}\n{own}: {{y:.4g}}"
        else:
            at, boxed = _by_length(result, signal)
            # As signal_label says one length: "translation error per 100 m segment".
            words = signal_words(signal.quantity) if signal is not None else "error"
            per = _literal(words.replace(" per segment", ""))
            hover = f"{_literal(path)}\n{per} per {{x}} segment: {{y:.4g}}{_literal(unit)}"
        box.append(
            Trace(kind="box", x=at, y=boxed, name=name, colour=colour, alpha=0.5, hover=hover)
        )
        if turned and (turn := turns[k]) is not None:
            turn_at, turns_boxed = _by_length(result, turn)
            per = _literal(signal_words(turn.quantity).replace(" per segment", ""))
            rotation_box.append(
                Trace(
                    kind="box",
                    x=turn_at,
                    y=turns_boxed,
                    name=name,
                    colour=colour,
                    alpha=0.5,
                    hover=f"{_literal(path)}\n{per} per {{x}} segment: {{y:.4g}} "
                    f"{_literal(turn.unit)}",
                )
            )
        violin.append(
            Trace(kind="violin", x=at, y=boxed, name=name, colour=colour, alpha=0.3, hover=hover)
        )
        counts, edges = np.histogram(finite, bins) if finite.size else (np.zeros(0), np.zeros(0))
        histogram.append(
            Trace(
                kind="histogram",
                x=edges,
                y=counts,
                name=name,
                colour=colour,
                dash=dash,
                text=tuple(
                    f"{a:.4g} to {b:.4g}{unit}: {n:.0f} of {finite.size}"
                    for (a, b), n in zip(pairwise(edges), counts, strict=True)
                ),
                hover=f"{_literal(path)}\n{{text}}",
            )
        )
    results = [result for _, result in named]
    frames = all(r.estimate.stamps_are_frames for r in results)
    # Where each error is drawn (a drift's at its segment's start), as --plot says it:
    # said only when every result's errors are drawn alike.
    ats = {drawn_at(r, f) for r, f in zip(results, firsts, strict=True) if f is not None}
    where = ats.pop() if len(ats) == 1 else ""
    # Each result at its name, one without errors too; a drift's at each segment length.
    by_name = partial(Panel, x_title="", y_title=label, categories=tuple(names))
    if lengths is not None:
        by_name = partial(
            Panel,
            x_title="segment length along the reference",
            y_title=_shared_label([s.replace(length_m=None) for s in held]),
            categories=lengths,
            legend="figure",
        )
    rotation: tuple[Panel, ...] = ()
    if rotation_box:
        turned_label = _shared_label([s.replace(length_m=None) for s in turns if s is not None])
        rotation = (
            by_name(
                traces=tuple(rotation_box),
                title="rotation box plot (1.5 IQR)",
                y_title=turned_label,
            ),
        )
    return FigureSpec(
        title="",
        panels=(
            Panel(
                traces=tuple(by_time),
                title=over_time("error", frames=frames, at=where),
                x_title=error_time_label(results, where),
                y_title=label,
                legend="figure",
            ),
            Panel(
                traces=tuple(over_distance),
                title="error over distance",
                x_title="distance travelled along the reference [m]",
                y_title=label,
                legend="figure",
                share_y=True,
            ),
            by_name(traces=tuple(box), title="box plot (whiskers 1.5 IQR)"),
            by_name(traces=tuple(violin), title="violin plot (min to max)", share_y=True),
            Panel(
                traces=tuple(histogram),
                title=f"histogram ({_BINS} bins)",
                x_title=label,
                y_title="errors per bin",
                legend="figure",
                x_from_zero=bool(bins[0] >= 0),  # errors (>= 0) from 0, as the other panels
            ),
            *rotation,
        ),
        size_in=(13.0, 8.0),
        rows=(2, 4) if rotation else (2, 3),
    )
