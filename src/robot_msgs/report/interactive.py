"""The report's interactive figures: plotly.js figure specifications, drawn offline in the page.

Each function takes a :class:`~robot_msgs.report.ReportResult` and returns a figure as
plain data (``{"data": [...], "layout": {...}}``, plotly.js's own schema) or ``None``
when it has nothing to draw; :mod:`robot_msgs.report.html_page` writes them into one
self-contained page with plotly.js inlined. Nothing here imports plotly: the figures
are JSON-ready dicts built from the stored series, so the numbers drawn are the ones
the tables summarise.

What a reader can do: zoom and pan every plot (drag, double-click to reset), hover any
point for its run, stamp and error, hover a point of the error-over-time plot to see
the same pose on the trajectory plot (and the other way round: the two views of a
sequence are linked by run and pose), click legend entries to hide or show a trial,
click an algorithm's legend title to hide or show all its trials. Every trial has its
algorithm's colour and its own line style; every shaded interval (a run's tracking
losses, a gap in the reference) has its own legend entry.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.report.plots import (
    algorithm_colours,
    loss_intervals,
    pooled_latencies_ms,
    reference_gaps,
    runs_of_sequence,
    sequence_t0,
    start_frame_positions,
    trial_styles,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.report.build import ReportResult
    from robot_msgs.runs.evaluate import RunEvaluation
    from robot_msgs.typing import Float64Array

__all__ = [
    "comparison_plot",
    "error_over_time_plot",
    "latency_cdf_plot",
    "repeatability_plot",
    "results_plots",
    "rpe_box_plot",
    "trajectories_plot",
]

Figure = dict[str, Any]
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
_FONT = {"family": "system-ui, sans-serif", "size": 12}


def _values(array: Float64Array, decimals: int) -> list[float | None]:
    """Round for the page (sub-millimetre, sub-microsecond) and turn NaN into a gap (null)."""
    rounded = np.round(np.asarray(array, dtype=np.float64), decimals)
    return [None if math.isnan(v) else v for v in rounded.tolist()]


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    layout: dict[str, Any] = {
        "title": {"text": title, "font": {"size": 14}, "x": 0.01, "xanchor": "left"},
        "font": _FONT,
        "hovermode": "closest",
        "margin": {"l": 60, "r": 20, "t": 60, "b": 50},
        "legend": {"groupclick": "toggleitem", "font": {"size": 11}},
        "plot_bgcolor": "#ffffff",
    }
    layout.update(extra)
    return layout


def _axis(title: str, **extra: Any) -> dict[str, Any]:
    axis = {"title": {"text": title}, "gridcolor": "#e5e5e5", "zeroline": False}
    axis.update(extra)
    return axis


def _label(e: RunEvaluation) -> str:
    failed = "" if e.report.success else f" (FAILED: {e.report.failure})"
    return e.report.name.rsplit("/", 1)[-1] + failed


def _first_series(primary: EvaluationResult) -> Any:
    return next(iter(primary.series.values()))


def trajectories_plot(result: ReportResult, sequence: str) -> Figure | None:
    """Aligned estimates over the reference (x-y), coloured by APE; one trace per run.

    Each trace's points are the run's matched poses in order (point ``k`` is pose ``k``,
    as in :func:`error_over_time_plot`), which is how hovering links the two views.
    """
    runs = [(e, p) for e in runs_of_sequence(result, sequence) if (p := e.primary) is not None]
    if not runs:
        return None
    errors = np.concatenate([_first_series(primary).errors for _, primary in runs])
    finite = errors[np.isfinite(errors)]
    top = float(np.percentile(finite, 99)) if finite.size else 1.0
    data: list[dict[str, Any]] = []
    ref = next((e.reference for e, _ in runs if e.reference is not None), None)
    if ref is not None:
        data.append(
            {
                "type": "scattergl" if len(ref) > 20000 else "scatter",
                "mode": "lines",
                "name": "reference",
                "x": _values(ref.positions_xyz[:, 0], 4),
                "y": _values(ref.positions_xyz[:, 1], 4),
                "line": {"color": "#9e9e9e", "width": 2},
                "hoverinfo": "skip",
            }
        )
    chosen = set()
    for e, primary in runs:
        series = _first_series(primary)
        xyz = primary.estimate.positions_xyz
        stamps = primary.estimate.stamps_s
        shown = e.report.algorithm not in chosen and e.report.success
        if shown:
            chosen.add(e.report.algorithm)
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": _label(e),
                "legendgroup": e.report.algorithm,
                "legendgrouptitle": {"text": e.report.algorithm},
                "meta": e.report.name,
                "visible": True if shown else "legendonly",
                "x": _values(xyz[:, 0], 4),
                "y": _values(xyz[:, 1], 4),
                "customdata": [
                    [s, k, err]
                    for k, (s, err) in enumerate(
                        zip(_values(stamps, 6), _values(series.errors, 7), strict=True)
                    )
                ],
                "marker": {"color": _values(series.errors, 7), "coloraxis": "coloraxis", "size": 5},
                "hovertemplate": (
                    f"{e.report.name}<br>stamp %{{customdata[0]:.6f}} s"
                    "<br>APE %{customdata[2]:.4f} m<br>x %{x:.3f} m, y %{y:.3f} m<extra></extra>"
                ),
            }
        )
    return {
        "data": data,
        "layout": _layout(
            f"{sequence}: aligned estimates, top view, coloured by APE (first trial of each "
            "algorithm shown; the legend shows the others)",
            xaxis=_axis("x [m]"),
            yaxis=_axis("y [m]", scaleanchor="x", scaleratio=1),
            coloraxis={
                "colorscale": "Viridis",
                "cmin": 0.0,
                "cmax": top,
                # The title along the bar: written across it, it ran into the legend.
                "colorbar": {
                    "title": {"text": "APE translation [m]", "side": "right"},
                    "x": 1.02,
                    "thickness": 20,
                },
            },
            legend={"groupclick": "toggleitem", "x": 1.2, "font": {"size": 11}},
            height=520,
        ),
    }


def error_over_time_plot(result: ReportResult, sequence: str) -> Figure | None:
    """APE over time of every run, losses and reference gaps shaded, each in the legend."""
    runs = [
        e for e in runs_of_sequence(result, sequence) if e.primary is not None or e.report.losses
    ]
    if not any(e.primary is not None for e in runs):
        return None
    colours = algorithm_colours(result)
    styles = trial_styles(runs)
    t0 = sequence_t0(runs)
    data: list[dict[str, Any]] = []
    top = 0.0
    for e in runs:
        if e.primary is None:
            continue
        series = _first_series(e.primary)
        finite = series.errors[np.isfinite(series.errors)]
        top = max(top, float(finite.max()) if finite.size else 0.0)
    top = top * 1.05 or 1.0
    for e in runs:
        colour = colours[e.report.algorithm]
        group = e.report.algorithm
        if e.primary is not None:
            series = _first_series(e.primary)
            t = series.stamps_s - t0
            rows = np.arange(len(series), dtype=np.float64)
            # Gaps (over 5 median steps) break the line: a null between the two sides.
            steps = np.diff(t)
            big = steps > 5.0 * np.median(steps) if t.size > 2 else np.zeros(0, dtype=bool)
            gaps = np.flatnonzero(big) + 1
            t_drawn = np.insert(t, gaps, np.nan)
            e_drawn = np.insert(series.errors, gaps, np.nan)
            k_drawn = np.insert(rows, gaps, np.nan)
            s_drawn = np.insert(series.stamps_s, gaps, np.nan)
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "name": _label(e),
                    "legendgroup": group,
                    "legendgrouptitle": {"text": group},
                    "meta": e.report.name,
                    "x": _values(t_drawn, 4),
                    "y": _values(e_drawn, 7),
                    "customdata": [
                        [s, None if k is None else int(k)]
                        for s, k in zip(_values(s_drawn, 6), _values(k_drawn, 0), strict=True)
                    ],
                    "line": {"color": colour, "dash": styles[e.report.name][1], "width": 1.4},
                    "hovertemplate": (
                        f"{e.report.name}<br>t = %{{x:.3f}} s (stamp %{{customdata[0]:.6f}} s)"
                        "<br>APE %{y:.4f} m<extra></extra>"
                    ),
                }
            )
        for k, (start, stop) in enumerate(loss_intervals(e, t0)):
            data.append(_band(start, stop, top, colour, f"{_label(e)}: tracking lost", group, k))
    for k, (start, stop) in enumerate(reference_gaps(runs)):
        name = "no reference (gap in the ground truth: no error can be computed)"
        data.append(_band(start - t0, stop - t0, top, "#7f7f7f", name, "reference", k))
    return {
        "data": data,
        "layout": _layout(
            f"{sequence}: APE over time (shaded: tracking lost, each run in the legend)",
            xaxis=_axis("time since sequence start [s]"),
            yaxis=_axis("APE translation error [m]", rangemode="tozero"),
            height=420,
        ),
    }


def _band(
    start: float, stop: float, top: float, colour: str, name: str, group: str, k: int
) -> dict[str, Any]:
    """Draw a shaded interval as a filled trace, so it has a legend entry and a hover text."""
    return {
        "type": "scatter",
        "mode": "lines",
        "fill": "toself",
        "name": name,
        "legendgroup": group,
        "showlegend": k == 0,
        "x": [round(start, 4), round(stop, 4), round(stop, 4), round(start, 4), round(start, 4)],
        "y": [0.0, 0.0, top, top, 0.0],
        "fillcolor": _rgba(colour, 0.18),
        "line": {"width": 0, "color": colour},
        "hovertemplate": f"{name}<br>{start:.2f} s .. {stop:.2f} s<extra></extra>",
    }


def _rgba(colour: str, alpha: float) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def rpe_box_plot(result: ReportResult, sequence: str) -> Figure | None:
    """RPE translation per delta (the x categories), one box per algorithm (trials pooled)."""
    runs = [e for e in runs_of_sequence(result, sequence) if e.rpe_results and e.report.success]
    if not runs:
        return None
    colours = algorithm_colours(result)
    data = []
    for algorithm in dict.fromkeys(e.report.algorithm for e in runs):
        xs: list[str] = []
        ys: list[float | None] = []
        for e in (e for e in runs if e.report.algorithm == algorithm):
            for rpe in e.rpe_results.values():
                one = rpe.comparison.signals[0]
                label = f"{one.delta:g} {one.delta_unit}"
                errors = next(iter(rpe.series.values())).errors
                errors = errors[np.isfinite(errors)]
                xs += [label] * errors.size
                ys += _values(errors, 7)
        data.append(
            {
                "type": "box",
                "name": algorithm,
                "x": xs,
                "y": ys,
                "marker": {"color": colours[algorithm], "size": 3},
                "boxpoints": "outliers",
                "hovertemplate": f"{algorithm}, delta %{{x}}<br>RPE %{{y:.4f}} m<extra></extra>",
            }
        )
    return {
        "data": data,
        "layout": _layout(
            f"{sequence}: RPE translation per delta (all pairs, successful runs pooled)",
            boxmode="group",
            xaxis=_axis("delta", type="category"),
            yaxis=_axis("RPE translation error [m]", rangemode="tozero"),
            height=400,
        ),
    }


def latency_cdf_plot(result: ReportResult) -> Figure | None:
    """Latency CDF per algorithm (runs pooled), processing dashed; p50 and p95 in the legend."""
    colours = algorithm_colours(result)
    pooled = pooled_latencies_ms(result)
    if not pooled:
        return None
    data = []
    for algorithm, (lat, proc) in pooled.items():
        colour = colours[algorithm]
        for times_ms, what, dash in (
            (lat, "acquisition to available", "solid"),
            (proc, "processing", "dash"),
        ):
            values = np.sort(times_ms)
            if not values.size:
                continue
            share = np.arange(1, values.size + 1) / values.size
            p50, p95 = np.percentile(values, [50.0, 95.0])
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "line": {"shape": "hv", "color": colour, "dash": dash},
                    "name": f"{algorithm}: {what} (p50 {p50:.0f} ms, p95 {p95:.0f} ms)",
                    "legendgroup": algorithm,
                    "x": _values(values, 2),
                    "y": _values(share, 5),
                    "hovertemplate": (
                        f"{algorithm} {what}<br>%{{x:.1f}} ms: %{{y:.1%}} of frames<extra></extra>"
                    ),
                }
            )
    return {
        "data": data,
        "layout": _layout(
            "Latency CDF, all runs of each algorithm pooled (solid: acquisition to estimate, "
            "queueing included; dashed: processing)",
            xaxis=_axis("time [ms]"),
            yaxis=_axis("share of frames", range=[0, 1.02], tickformat=".0%"),
            height=420,
        ),
    }


def comparison_plot(result: ReportResult) -> Figure | None:
    """Per-algorithm APE RMSE across sequences: median bar, min-max whiskers, runs succeeded."""
    groups = [g for g in result.report.groups if g.accuracy is not None]
    if not groups:
        return None
    colours = algorithm_colours(result)
    data = []
    for algorithm in dict.fromkeys(g.algorithm for g in groups):
        mine = [g for g in groups if g.algorithm == algorithm]
        stats = [g.accuracy.stats.get("translation") if g.accuracy else None for g in mine]
        median = [s.median if s is not None and s.n else None for s in stats]
        data.append(
            {
                "type": "bar",
                "name": algorithm,
                "x": [g.sequence for g in mine],
                "y": median,
                "marker": {"color": colours[algorithm]},
                "error_y": {
                    "type": "data",
                    "symmetric": False,
                    "array": [s.max - s.median if s is not None and s.n else 0 for s in stats],
                    "arrayminus": [s.median - s.min if s is not None and s.n else 0 for s in stats],
                },
                "customdata": [f"{g.n_runs - g.n_failed}/{g.n_runs}" for g in mine],
                "hovertemplate": f"{algorithm}, %{{x}}<br>median APE RMSE %{{y:.4f}} m<br>"
                "%{customdata} runs succeeded<extra></extra>",
            }
        )
    return {
        "data": data,
        "layout": _layout(
            "Per-algorithm accuracy across sequences (successful runs: median, min-max)",
            barmode="group",
            xaxis=_axis("sequence"),
            yaxis=_axis("APE RMSE [m]", rangemode="tozero"),
            height=380,
        ),
    }


def repeatability_plot(result: ReportResult, sequence: str) -> Figure | None:
    """Without a reference: every run in its own start frame, one panel per algorithm."""
    runs = [
        e
        for e in runs_of_sequence(result, sequence)
        if e.estimate is not None and e.reference is None
    ]
    if not runs:
        return None
    algorithms = list(dict.fromkeys(e.report.algorithm for e in runs))
    width = 1.0 / len(algorithms)
    layout = _layout(
        f"{sequence}: no reference - do repeated runs agree? (this is not accuracy)", height=460
    )
    data = []
    for i, algorithm in enumerate(algorithms):
        suffix = "" if i == 0 else str(i + 1)
        trials = [e for e in runs if e.report.algorithm == algorithm]
        rep = next((e.report.repeatability for e in trials if e.report.repeatability), None)
        spread = f", endpoint spread {rep.endpoint_spread_m:.3f} m" if rep else ""
        layout[f"xaxis{suffix}"] = _axis(
            f"{algorithm}{spread}: x in start frame [m]",
            domain=[i * width + 0.04, (i + 1) * width - 0.04],
            anchor=f"y{suffix}",
        )
        layout[f"yaxis{suffix}"] = _axis(
            "y in start frame [m]", anchor=f"x{suffix}", scaleanchor=f"x{suffix}"
        )
        for k, e in enumerate(trials):
            xyz = start_frame_positions(e)
            data.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "name": f"{algorithm}/{_label(e)}",
                    "legendgroup": algorithm,
                    "legendgrouptitle": {"text": algorithm},
                    "xaxis": f"x{suffix}",
                    "yaxis": f"y{suffix}",
                    "x": _values(xyz[:, 0], 4),
                    "y": _values(xyz[:, 1], 4),
                    "line": {
                        "color": _PALETTE[k % len(_PALETTE)],
                        "dash": ("solid", "dash", "dot", "dashdot")[k % 4],
                    },
                    "hovertemplate": (
                        f"{e.report.name}<br>x %{{x:.3f}} m, y %{{y:.3f}} m<extra></extra>"
                    ),
                }
            )
    return {"data": data, "layout": layout}


def results_plots(
    named: Sequence[tuple[str, EvaluationResult]], labels: Sequence[str] | None = None
) -> list[tuple[str, str, Figure]]:
    """Figures of ``robot-msgs res --html``: error over time and distance, box, violin, histogram.

    Each result's first signal, one colour per result across the figures, named
    ``labels`` (default: :func:`~robot_msgs.report.figure_text.legend_names` of the
    paths; the path is in the hover). Time is seconds, or frames for KITTI results,
    since the result's first error; distance is
    :func:`~robot_msgs.report.saved_results.error_distances_m` (evo's zips carry theirs).
    Violins end at the smallest and largest error, as the Matplotlib figure's do.
    Returns ``(kind, caption, figure)``.
    """
    from robot_msgs.report.figure_text import legend_names  # noqa: PLC0415
    from robot_msgs.report.figures import error_time_label, signal_label  # noqa: PLC0415
    from robot_msgs.report.saved_results import error_distances_m  # noqa: PLC0415

    names = list(labels) if labels is not None else legend_names([p for p, _ in named])
    label = signal_label(named[0][1].comparison.signals[0])
    over_time, over_distance, box, violin, histogram = [], [], [], [], []
    for k, ((path, result), name) in enumerate(zip(named, names, strict=True)):
        colour = _PALETTE[k % len(_PALETTE)]
        series = next(iter(result.series.values()))
        t = series.stamps_s - (series.stamps_s[0] if len(series) else 0.0)
        errors = _values(series.errors, 7)
        common = {"name": name, "legendgroup": name, "marker": {"color": colour}}
        over_time.append(
            {
                **common,
                "type": "scatter",
                "mode": "lines",
                "x": _values(t, 4),
                "y": errors,
                "customdata": _values(series.stamps_s, 6),
                "line": {"color": colour, "width": 1.2},
                "hovertemplate": f"{path}<br>stamp %{{customdata:.6f}}<br>{label}: %{{y:.4g}}"
                "<extra></extra>",
            }
        )
        distance = error_distances_m(path, result, series)
        if distance is not None:
            over_distance.append(
                {
                    **common,
                    "type": "scatter",
                    "mode": "lines",
                    "x": _values(distance, 3),
                    "y": errors,
                    "line": {"color": colour, "width": 1.2},
                }
            )
        finite = [e for e in errors if e is not None]
        box.append({**common, "type": "box", "y": finite, "boxpoints": "outliers"})
        violin.append(
            {
                **common,
                "type": "violin",
                "y": finite,
                "box": {"visible": True},
                "spanmode": "hard",  # no density below the smallest error (below 0)
            }
        )
        histogram.append(
            {
                **common,
                "type": "histogram",
                "x": finite,
                "nbinsx": 40,
                "histfunc": "count",
                "marker": {"color": _rgba(colour, 0.25), "line": {"color": colour, "width": 1.5}},
            }
        )
    plots = [
        (
            "error_over_time",
            "Error over time",
            over_time,
            _axis(error_time_label([r for _, r in named])),
        ),
        (
            "error_over_distance",
            "Error over distance travelled along the reference",
            over_distance,
            _axis("distance travelled along the reference [m]"),
        ),
        ("box", "Box plot (whiskers 1.5 IQR)", box, _axis("")),
        ("violin", "Violin plot (min to max)", violin, _axis("")),
        ("histogram", "Histogram (40 bins)", histogram, _axis(label)),
    ]
    out = []
    for kind, caption, data, xaxis in plots:
        if not data:
            continue
        yaxis = _axis("errors per bin" if kind == "histogram" else label)
        extra = {"barmode": "overlay"} if kind == "histogram" else {}
        layout = _layout(caption, xaxis=xaxis, yaxis=yaxis, height=400, **extra)
        out.append((kind, caption, {"data": data, "layout": layout}))
    return out
