"""The report's figures, drawn with matplotlib's object API on the Agg canvas (PNG bytes).

No ``pyplot``: figures are built as :class:`matplotlib.figure.Figure` objects and printed
through ``FigureCanvasAgg``, so nothing global (backend, open figures) is touched.
matplotlib is the optional ``plot`` extra. Every function takes a
:class:`~robot_msgs.report.ReportResult` and returns ``None`` when it has nothing to draw.
"""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.optional import require
from robot_msgs.rotations import matrix_from_quat_xyzw

if TYPE_CHECKING:
    from robot_msgs.compare.result import ErrorSeries
    from robot_msgs.report.build import ReportResult
    from robot_msgs.runs.evaluate import RunEvaluation
    from robot_msgs.typing import Float64Array

__all__ = [
    "comparison_figure",
    "error_over_time_figure",
    "figure_png",
    "latency_cdf_figure",
    "new_figure",
    "repeatability_figure",
    "rpe_boxplot_figure",
    "trajectories_figure",
]

_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
_DPI = 100


def new_figure(width_in: float, height_in: float) -> Any:
    """Make a matplotlib ``Figure`` on an Agg canvas (``plot`` extra), constrained layout."""
    require("matplotlib", "plot", feature="report plots")
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    fig = Figure(figsize=(width_in, height_in), dpi=_DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def figure_png(fig: Any) -> bytes:
    r"""Render the figure as PNG bytes.

    Examples
    --------
    >>> fig = new_figure(2, 1)
    >>> _ = fig.add_subplot().plot([0, 1], [0, 1])
    >>> figure_png(fig)[:8]
    b'\x89PNG\r\n\x1a\n'
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=_DPI, metadata={"Software": None})
    return buffer.getvalue()


def _break_gaps(t: Float64Array, values: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Insert a NaN after every gap longer than 5 median steps, so lines do not bridge it.

    ``values`` may be ``(N,)`` or ``(N, D)``; both results have the gaps as extra rows.

    Examples
    --------
    >>> t, v = _break_gaps(np.array([0.0, 0.1, 0.2, 3.0]), np.array([1.0, 2.0, 3.0, 4.0]))
    >>> v.tolist()[:3], bool(np.isnan(v[3])), v.tolist()[4]
    ([1.0, 2.0, 3.0], True, 4.0)
    """
    if t.size < 3:
        return t, values
    steps = np.diff(t)
    gaps = np.flatnonzero(steps > 5.0 * np.median(steps)) + 1
    t_out = np.insert(t, gaps, np.nan)
    v_out = np.insert(np.asarray(values, dtype=np.float64), gaps, np.nan, axis=0)
    return t_out, v_out


def _colours(result: ReportResult) -> dict[str, str]:
    algorithms = dict.fromkeys(e.report.algorithm for e in result.runs.values())
    return {a: _PALETTE[i % len(_PALETTE)] for i, a in enumerate(algorithms)}


def _of_sequence(result: ReportResult, sequence: str) -> list[RunEvaluation]:
    return [e for e in result.runs.values() if e.report.sequence == sequence]


def _t0(runs: list[RunEvaluation]) -> float:
    starts = [e.report.sequence_start_s for e in runs if math.isfinite(e.report.sequence_start_s)]
    if starts:
        return min(starts)
    firsts = [
        float(e.estimate.stamps_s[0]) for e in runs if e.estimate is not None and len(e.estimate)
    ]
    return min(firsts) if firsts else 0.0


def _series(e: RunEvaluation) -> ErrorSeries:
    """Return the first signal's series of the run's first metric (APE translation by default)."""
    assert e.primary is not None
    return next(iter(e.primary.series.values()))


def trajectories_figure(result: ReportResult, sequence: str) -> Any | None:
    """Top view (x, y) of one aligned run per algorithm, coloured by APE, over the reference."""
    runs = [e for e in _of_sequence(result, sequence) if e.primary is not None]
    chosen: dict[str, RunEvaluation] = {}
    for e in sorted(runs, key=lambda e: (not e.report.success, e.report.trial)):
        chosen.setdefault(e.report.algorithm, e)
    if not chosen:
        return None
    errors = np.concatenate([_series(e).errors for e in chosen.values()])
    top = float(np.percentile(errors, 99)) if errors.size else 1.0
    fig = new_figure(3.6 * len(chosen) + 0.8, 3.6)
    axes = fig.subplots(1, len(chosen), squeeze=False)[0]
    mappable = None
    for ax, (algorithm, e) in zip(axes, chosen.items(), strict=True):
        assert e.primary is not None
        ref = e.reference
        if ref is not None:
            _, ref_xyz = _break_gaps(ref.stamps_s, ref.positions_xyz)
            ax.plot(
                ref_xyz[:, 0],
                ref_xyz[:, 1],
                color="0.6",
                lw=1.5,
                label="reference",
            )
        xyz = e.primary.estimate.positions_xyz
        mappable = ax.scatter(
            xyz[:, 0], xyz[:, 1], c=_series(e).errors, s=7, cmap="viridis", vmin=0.0, vmax=top
        )
        ax.set_title(f"{algorithm} ({e.report.name.rsplit('/', 1)[-1]})", fontsize=10)
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        ax.set_aspect("equal", adjustable="datalim")
        ax.legend(loc="best", fontsize=8)
    if mappable is not None:
        fig.colorbar(mappable, ax=list(axes), label="APE translation [m]", shrink=0.9)
    fig.suptitle(f"{sequence}: aligned estimates, top view, coloured by APE", fontsize=11)
    return fig


def error_over_time_figure(result: ReportResult, sequence: str) -> Any | None:
    """APE over time of every run, tracking-loss intervals shaded, failures marked."""
    runs = [e for e in _of_sequence(result, sequence) if e.primary is not None or e.report.losses]
    if not any(e.primary is not None for e in runs):
        return None
    colours = _colours(result)
    t0 = _t0(runs)
    fig = new_figure(11.0, 3.6)
    ax = fig.add_subplot()
    shaded = False
    seen: set[str] = set()
    for e in runs:
        colour = colours[e.report.algorithm]
        style = "-" if e.report.success else ":"
        if e.primary is not None:
            label = f"{e.report.name}" + (
                "" if e.report.success else f" (FAILED: {e.report.failure})"
            )
            series = _series(e)
            t, errors = _break_gaps(series.stamps_s - t0, series.errors)
            alpha = 0.65 if e.report.algorithm in seen else 1.0
            seen.add(e.report.algorithm)
            ax.plot(t, errors, style, color=colour, lw=1.1, alpha=alpha, label=label)
        end = e.report.sequence_end_s - t0 if math.isfinite(e.report.sequence_end_s) else None
        for loss in e.report.losses:
            stop = loss.end_s - t0 if loss.recovered or end is None else max(end, loss.end_s - t0)
            ax.axvspan(
                loss.start_s - t0,
                stop,
                color=colour,
                alpha=0.15,
                lw=0,
                label=None if shaded else "tracking lost",
            )
            shaded = True
    ax.set_xlabel("time since sequence start [s]")
    ax.set_ylabel("APE translation [m]")
    ax.set_ylim(bottom=0.0)
    ax.set_title(
        f"{sequence}: error over time (shaded: tracking lost; dotted: failed run)", fontsize=11
    )
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(alpha=0.3)
    return fig


def rpe_boxplot_figure(result: ReportResult, sequence: str) -> Any | None:
    """RPE translation distributions per delta, one box per algorithm (successful runs pooled)."""
    runs = [e for e in _of_sequence(result, sequence) if e.rpe_results and e.report.success]
    if not runs:
        return None
    colours = _colours(result)
    algorithms = list(dict.fromkeys(e.report.algorithm for e in runs))
    names = list(dict.fromkeys(name for e in runs for name in e.rpe_results))
    fig = new_figure(max(3.2 * len(names), 4.5), 3.4)
    axes = fig.subplots(1, len(names), squeeze=False)[0]
    for ax, name in zip(axes, names, strict=True):
        data = []
        comparison = next(e.rpe_results[name] for e in runs if name in e.rpe_results).comparison
        for algorithm in algorithms:
            pooled = [
                next(iter(e.rpe_results[name].series.values())).errors
                for e in runs
                if e.report.algorithm == algorithm and name in e.rpe_results
            ]
            values = np.concatenate(pooled) if pooled else np.empty(0)
            data.append(values[np.isfinite(values)])
        box = ax.boxplot(data, patch_artist=True, showfliers=True, flierprops={"markersize": 2})
        ax.set_xticks(range(1, len(algorithms) + 1), algorithms)
        for patch, algorithm in zip(box["boxes"], algorithms, strict=True):
            patch.set_facecolor(colours[algorithm])
            patch.set_alpha(0.5)
        delta = comparison.settings.get("delta", "?")
        unit = comparison.settings.get("delta_unit", "")
        ax.set_title(f"delta = {delta} {unit}", fontsize=10)
        ax.set_ylabel("RPE translation [m]")
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle(f"{sequence}: RPE per delta (all pairs, successful runs)", fontsize=11)
    return fig


def _ecdf(values: Float64Array) -> tuple[Float64Array, Float64Array]:
    x = np.sort(values)
    return x, np.arange(1, x.size + 1) / x.size


def latency_cdf_figure(result: ReportResult) -> Any | None:
    """Latency CDF per algorithm (all runs pooled), p50 and p95 marked; processing dashed."""
    colours = _colours(result)
    pooled: dict[str, tuple[list[Float64Array], list[Float64Array]]] = {}
    for e in result.runs.values():
        if e.latency_s.size:
            lat_list, proc_list = pooled.setdefault(e.report.algorithm, ([], []))
            lat_list.append(e.latency_s)
            proc_list.append(e.processing_s[np.isfinite(e.processing_s)])
    if not pooled:
        return None
    fig = new_figure(9.0, 3.6)
    ax = fig.add_subplot()
    for k, (algorithm, (lat_parts, proc_parts)) in enumerate(pooled.items()):
        colour = colours[algorithm]
        lat = np.concatenate(lat_parts) * 1e3
        x, y = _ecdf(lat)
        ax.step(
            x, y, where="post", color=colour, lw=1.6, label=f"{algorithm}: acquisition to available"
        )
        proc = np.concatenate(proc_parts) * 1e3
        if proc.size:
            px, py = _ecdf(proc)
            ax.step(
                px,
                py,
                where="post",
                color=colour,
                lw=1.0,
                ls="--",
                label=f"{algorithm}: processing",
            )
        p50, p95 = np.percentile(lat, [50.0, 95.0])
        ax.plot([p50, p95], [0.50, 0.95], "o", color=colour, ms=6, mec="black", mew=0.6)
        ax.annotate(
            f"p50 {p50:.0f} ms",
            (p50, 0.50),
            textcoords="offset points",
            xytext=(6, -10 - 9 * k),
            fontsize=7,
            color=colour,
        )
        ax.annotate(
            f"p95 {p95:.0f} ms",
            (p95, 0.95),
            textcoords="offset points",
            xytext=(6, -10 - 9 * k),
            fontsize=7,
            color=colour,
        )
    ax.axhline(0.5, color="0.7", lw=0.6, ls=":")
    ax.axhline(0.95, color="0.7", lw=0.6, ls=":")
    ax.set_xlabel("time [ms]")
    ax.set_ylabel("share of frames")
    ax.set_ylim(0.0, 1.02)
    ax.set_title(
        "Latency CDF, all runs of each algorithm pooled "
        "(solid: acquisition to estimate, queueing included; dashed: processing)",
        fontsize=10,
    )
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(alpha=0.3)
    return fig


def comparison_figure(result: ReportResult) -> Any | None:
    """Per-algorithm comparison across sequences: APE RMSE (median, min-max) and success."""
    groups = [g for g in result.report.groups if g.accuracy is not None]
    if not groups:
        return None
    colours = _colours(result)
    sequences = list(dict.fromkeys(g.sequence for g in groups))
    algorithms = list(dict.fromkeys(g.algorithm for g in groups))
    width = 0.8 / len(algorithms)
    fig = new_figure(max(5.0, 1.6 * len(sequences) * len(algorithms) / 2 + 3), 3.6)
    ax = fig.add_subplot()
    for i, algorithm in enumerate(algorithms):
        for j, sequence in enumerate(sequences):
            g = next(
                (g for g in groups if (g.algorithm, g.sequence) == (algorithm, sequence)), None
            )
            if g is None or g.accuracy is None:
                continue
            x = j + (i - (len(algorithms) - 1) / 2) * width
            stats = g.accuracy.stats.get("translation")
            height = stats.median if stats is not None and stats.n else 0.0
            ax.bar(
                x,
                height,
                width * 0.9,
                color=colours[algorithm],
                alpha=0.8,
                label=algorithm if j == 0 else None,
            )
            if stats is not None and stats.n:
                ax.errorbar(
                    x,
                    height,
                    yerr=[[height - stats.min], [stats.max - height]],
                    color="black",
                    capsize=3,
                    lw=1,
                )
            succeeded = g.n_runs - g.n_failed
            ax.annotate(
                f"{succeeded}/{g.n_runs} ok",
                (x, height),
                textcoords="offset points",
                xytext=(0, 4),
                ha="center",
                fontsize=7,
            )
    ax.set_xticks(range(len(sequences)), sequences)
    ax.set_ylabel("APE RMSE [m] (median, min-max)")
    ax.set_title(
        "Per-algorithm accuracy across sequences (successful runs; label: runs succeeded)",
        fontsize=10,
    )
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    return fig


def _start_frame_xy(e: RunEvaluation) -> Float64Array:
    """Return the estimate's positions in its first pose's frame, ``(N, 3)`` metres."""
    assert e.estimate is not None
    est = e.estimate
    rotation = matrix_from_quat_xyzw(est.orientations_quat_xyzw[:1])[0]
    out: Float64Array = (est.positions_xyz - est.positions_xyz[0]) @ rotation
    return out


def repeatability_figure(result: ReportResult, sequence: str) -> Any | None:
    """Without a reference: every run in its own start frame, overlaid (agreement, not accuracy)."""
    runs = [
        e for e in _of_sequence(result, sequence) if e.estimate is not None and e.reference is None
    ]
    if not runs:
        return None
    colours = _colours(result)
    algorithms = list(dict.fromkeys(e.report.algorithm for e in runs))
    fig = new_figure(3.8 * len(algorithms) + 0.4, 3.8)
    axes = fig.subplots(1, len(algorithms), squeeze=False)[0]
    for ax, algorithm in zip(axes, algorithms, strict=True):
        for e in (e for e in runs if e.report.algorithm == algorithm):
            xyz = _start_frame_xy(e)
            style = "-" if e.report.success else ":"
            label = e.report.name.rsplit("/", 1)[-1] + ("" if e.report.success else " (failed)")
            ax.plot(
                xyz[:, 0],
                xyz[:, 1],
                style,
                color=colours[algorithm],
                lw=1.0,
                alpha=0.8,
                label=label,
            )
            ax.plot(xyz[-1, 0], xyz[-1, 1], "o", color=colours[algorithm], ms=4)
        rep = next(
            (
                e.report.repeatability
                for e in runs
                if e.report.algorithm == algorithm and e.report.repeatability
            ),
            None,
        )
        spread = f", endpoint spread {rep.endpoint_spread_m:.3f} m" if rep else ""
        ax.set_title(f"{algorithm}{spread}", fontsize=9)
        ax.set_xlabel("x in start frame [m]")
        ax.set_ylabel("y in start frame [m]")
        ax.set_aspect("equal", adjustable="datalim")
        ax.legend(fontsize=7)
    fig.suptitle(
        f"{sequence}: no reference - repeated runs agree or not; this is not accuracy", fontsize=11
    )
    return fig
