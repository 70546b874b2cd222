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

from robot_msgs.errors import ValidationError
from robot_msgs.optional import require
from robot_msgs.report.figure_text import keep_text_plain
from robot_msgs.report.figures import break_gaps
from robot_msgs.rotations import quat_xyzw_rotate

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import ErrorSeries
    from robot_msgs.report.build import ReportResult
    from robot_msgs.runs.evaluate import RunEvaluation
    from robot_msgs.typing import Float64Array

__all__ = [
    "algorithm_colours",
    "comparison_figure",
    "error_over_time_figure",
    "figure_png",
    "latency_cdf_figure",
    "loss_intervals",
    "new_figure",
    "reference_gaps",
    "repeatability_figure",
    "rpe_boxplot_figure",
    "runs_of_sequence",
    "sequence_t0",
    "start_frame_positions",
    "trajectories_figure",
    "trial_styles",
]

_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
#: Line styles that tell the trials of one algorithm apart (matplotlib, plotly names).
_TRIAL_STYLES = (("-", "solid"), ("--", "dash"), (":", "dot"), ("-.", "dashdot"))
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
    keep_text_plain(fig)  # run names with $ are shown, not read as mathtext
    fig.savefig(buffer, format="png", dpi=_DPI, metadata={"Software": None})
    return buffer.getvalue()


def algorithm_colours(result: ReportResult) -> dict[str, str]:
    """Return one colour per algorithm, in order of first appearance (the same in every plot)."""
    algorithms = dict.fromkeys(e.report.algorithm for e in result.runs.values())
    return {a: _PALETTE[i % len(_PALETTE)] for i, a in enumerate(algorithms)}


def trial_styles(runs: list[RunEvaluation]) -> dict[str, tuple[str, str]]:
    """Return a line style per run, by run name: the k-th trial of its algorithm gets the k-th.

    Each value is ``(matplotlib style, plotly dash)``; with the algorithm's colour, every
    trial of a sequence is told apart.
    """
    seen: dict[str, int] = {}
    out = {}
    for e in runs:
        k = seen.get(e.report.algorithm, 0)
        seen[e.report.algorithm] = k + 1
        out[e.report.name] = _TRIAL_STYLES[k % len(_TRIAL_STYLES)]
    return out


def runs_of_sequence(result: ReportResult, sequence: str) -> list[RunEvaluation]:
    """Return the evaluations of the runs of ``sequence``, in the manifest's order."""
    return [e for e in result.runs.values() if e.report.sequence == sequence]


def reference_gaps(runs: list[RunEvaluation]) -> list[tuple[float, float]]:
    """Return the reference's gaps (steps over 5 median steps) as ``(start, end)`` seconds.

    Taken from the first run with a reference; no error can be computed inside a gap.
    """
    ref = next((e.reference for e in runs if e.reference is not None), None)
    if ref is None or len(ref) < 3:
        return []
    steps = np.diff(ref.stamps_s)
    gaps = np.flatnonzero(steps > 5.0 * np.median(steps))
    return [(float(ref.stamps_s[i]), float(ref.stamps_s[i + 1])) for i in gaps.tolist()]


def sequence_t0(runs: list[RunEvaluation]) -> float:
    """Return the time origin of a sequence's plots: its start, else the earliest estimate."""
    starts = [e.report.sequence_start_s for e in runs if math.isfinite(e.report.sequence_start_s)]
    if starts:
        return min(starts)
    firsts = [
        float(e.estimate.stamps_s[0]) for e in runs if e.estimate is not None and len(e.estimate)
    ]
    return min(firsts) if firsts else 0.0


def _series(primary: EvaluationResult) -> ErrorSeries:
    """Return the first signal's series of a run's first metric (APE translation by default)."""
    return next(iter(primary.series.values()))


def trajectories_figure(result: ReportResult, sequence: str) -> Any | None:
    """Top view (x, y) of one aligned run per algorithm, coloured by APE, over the reference."""
    runs = [(e, p) for e in runs_of_sequence(result, sequence) if (p := e.primary) is not None]
    chosen: dict[str, tuple[RunEvaluation, EvaluationResult]] = {}
    for e, primary in sorted(
        runs, key=lambda run: (not run[0].report.success, run[0].report.trial)
    ):
        chosen.setdefault(e.report.algorithm, (e, primary))
    if not chosen:
        return None
    errors = np.concatenate([_series(primary).errors for _, primary in chosen.values()])
    top = float(np.percentile(errors, 99)) if errors.size else 1.0
    fig = new_figure(3.6 * len(chosen) + 0.8, 3.6)
    axes = fig.subplots(1, len(chosen), squeeze=False)[0]
    mappable = None
    for ax, (algorithm, (e, primary)) in zip(axes, chosen.items(), strict=True):
        ref = e.reference
        if ref is not None:
            _, ref_xyz = break_gaps(ref.stamps_s, ref.positions_xyz)
            ax.plot(
                ref_xyz[:, 0],
                ref_xyz[:, 1],
                color="0.6",
                lw=1.5,
                label="reference",
            )
        xyz = primary.estimate.positions_xyz
        mappable = ax.scatter(
            xyz[:, 0], xyz[:, 1], c=_series(primary).errors, s=7, cmap="viridis", vmin=0.0, vmax=top
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


def loss_intervals(e: RunEvaluation, t0: float) -> list[tuple[float, float]]:
    """Return a run's tracking-loss intervals in seconds since ``t0``.

    A loss never recovered runs to the end of the sequence.
    """
    end = e.report.sequence_end_s - t0 if math.isfinite(e.report.sequence_end_s) else None
    out = []
    for loss in e.report.losses:
        stop = loss.end_s - t0 if loss.recovered or end is None else max(end, loss.end_s - t0)
        out.append((loss.start_s - t0, stop))
    return out


def error_over_time_figure(result: ReportResult, sequence: str) -> Any | None:
    """APE over time of every run, tracking-loss intervals and reference gaps shaded.

    Each algorithm has its colour and each of its trials a line style; every shaded
    interval has a legend entry (the run's losses, the reference's gaps).
    """
    runs = [
        e for e in runs_of_sequence(result, sequence) if e.primary is not None or e.report.losses
    ]
    if not any(e.primary is not None for e in runs):
        return None
    colours = algorithm_colours(result)
    styles = trial_styles(runs)
    t0 = sequence_t0(runs)
    fig = new_figure(11.0, 3.6)
    ax = fig.add_subplot()
    for e in runs:
        colour = colours[e.report.algorithm]
        style = styles[e.report.name][0]
        if e.primary is not None:
            label = f"{e.report.name}" + (
                "" if e.report.success else f" (FAILED: {e.report.failure})"
            )
            series = _series(e.primary)
            t, errors = break_gaps(series.stamps_s - t0, series.errors)
            ax.plot(t, errors, style, color=colour, lw=1.1, label=label)
        for k, (start, stop) in enumerate(loss_intervals(e, t0)):
            shade = f"{e.report.name}: tracking lost" if k == 0 else None
            ax.axvspan(start, stop, color=colour, alpha=0.15, lw=0, label=shade)
    for k, (start, stop) in enumerate(reference_gaps(runs)):
        gap = "no reference (gap in the ground truth)" if k == 0 else None
        ax.axvspan(start - t0, stop - t0, color="0.5", alpha=0.25, hatch="//", lw=0, label=gap)
    ax.set_xlabel("time since sequence start [s]")
    ax.set_ylabel("APE translation error [m]")
    ax.set_ylim(bottom=0.0)
    ax.set_title(f"{sequence}: error over time (shaded: tracking lost)", fontsize=11)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(alpha=0.3)
    return fig


def rpe_boxplot_figure(result: ReportResult, sequence: str) -> Any | None:
    """RPE translation distributions per delta, one box per algorithm (successful runs pooled)."""
    runs = [e for e in runs_of_sequence(result, sequence) if e.rpe_results and e.report.success]
    if not runs:
        return None
    colours = algorithm_colours(result)
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
        one = comparison.signals[0]
        ax.set_title(f"delta = {one.delta:g} {one.delta_unit}", fontsize=10)
        ax.set_ylabel("RPE translation [m]")
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle(f"{sequence}: RPE per delta (all pairs, successful runs)", fontsize=11)
    return fig


def _ecdf(values: Float64Array) -> tuple[Float64Array, Float64Array]:
    x = np.sort(values)
    return x, np.arange(1, x.size + 1) / x.size


def pooled_latencies_ms(result: ReportResult) -> dict[str, tuple[Float64Array, Float64Array]]:
    """Per algorithm, the latencies and the finite processing times of all its runs, in ms.

    Shapes ``(n,)`` and ``(m,)``; algorithms without a timing log are left out. The one
    pooling of the static and the interactive latency plots.
    """
    parts: dict[str, tuple[list[Float64Array], list[Float64Array]]] = {}
    for e in result.runs.values():
        if e.latency_s.size:
            lat, proc = parts.setdefault(e.report.algorithm, ([], []))
            lat.append(e.latency_s)
            proc.append(e.processing_s[np.isfinite(e.processing_s)])
    return {
        algorithm: (np.concatenate(lat) * 1e3, np.concatenate(proc) * 1e3)
        for algorithm, (lat, proc) in parts.items()
    }


def latency_cdf_figure(result: ReportResult) -> Any | None:
    """Latency CDF per algorithm (all runs pooled), p50 and p95 marked; processing dashed."""
    colours = algorithm_colours(result)
    pooled = pooled_latencies_ms(result)
    if not pooled:
        return None
    fig = new_figure(9.0, 3.6)
    ax = fig.add_subplot()
    for algorithm, (lat, proc) in pooled.items():
        colour = colours[algorithm]
        x, y = _ecdf(lat)
        p50, p95 = np.percentile(lat, [50.0, 95.0])
        ax.step(
            x,
            y,
            where="post",
            color=colour,
            lw=1.6,
            label=f"{algorithm}: acquisition to available (p50 {p50:.0f} ms, p95 {p95:.0f} ms)",
        )
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
        ax.plot([p50, p95], [0.50, 0.95], "o", color=colour, ms=6, mec="black", mew=0.6)
    ax.axhline(0.5, color="0.7", lw=0.6, ls=":")
    ax.axhline(0.95, color="0.7", lw=0.6, ls=":")
    ax.set_xlabel("time [ms]")
    ax.set_ylabel("share of frames")
    ax.set_ylim(0.0, 1.02)
    ax.set_title(
        # Two lines: on one, the title was wider than the 9 in figure and lost its ends.
        "Latency CDF, all runs of each algorithm pooled\n(solid: acquisition to estimate, "
        "queueing included; dashed: processing; dots: p50 and p95)",
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
    colours = algorithm_colours(result)
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
            top = stats.max if stats is not None and stats.n else height
            ax.annotate(  # above the error bar's cap, not struck through by the bar
                f"{succeeded}/{g.n_runs} ok",
                (x, top),
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


def repeatability_figure(result: ReportResult, sequence: str) -> Any | None:
    """Without a reference: every run in its own start frame, overlaid (agreement, not accuracy)."""
    runs = [
        e
        for e in runs_of_sequence(result, sequence)
        if e.estimate is not None and e.reference is None
    ]
    if not runs:
        return None
    algorithms = list(dict.fromkeys(e.report.algorithm for e in runs))
    fig = new_figure(3.8 * len(algorithms) + 0.4, 3.8)
    axes = fig.subplots(1, len(algorithms), squeeze=False)[0]
    for ax, algorithm in zip(axes, algorithms, strict=True):
        trials = [e for e in runs if e.report.algorithm == algorithm]
        for k, e in enumerate(trials):
            xyz = start_frame_positions(e)
            colour = _PALETTE[k % len(_PALETTE)]
            style = _TRIAL_STYLES[k % len(_TRIAL_STYLES)][0]
            label = e.report.name.rsplit("/", 1)[-1] + ("" if e.report.success else " (failed)")
            ax.plot(
                xyz[:, 0],
                xyz[:, 1],
                style,
                color=colour,
                lw=1.2,
                label=label,
            )
            ax.plot(xyz[-1, 0], xyz[-1, 1], "o", color=colour, ms=4)
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
