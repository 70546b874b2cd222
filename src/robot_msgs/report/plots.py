"""The report's figures drawn with matplotlib's object API on the Agg canvas (PNG bytes).

:func:`matplotlib_figure` draws a :class:`~robot_msgs.report.figure_spec.FigureSpec`, the
one description of each figure that the interactive page draws too, the run report's
and ``res --plot``'s (:func:`results_figure`). No ``pyplot``: figures are
:class:`matplotlib.figure.Figure` objects printed through ``FigureCanvasAgg``, so nothing
global (backend, open figures) is touched. matplotlib is the optional ``plot`` extra. A
static figure has no hover and no legend to click: hidden traces are not drawn, a bar's
label is written above its whisker, and a trace named as its category is named under
the axis, not again in the legend.
"""

from __future__ import annotations

import math
import textwrap
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import FormatError
from robot_msgs.report.figure_spec import (
    BAR_LABEL_GAP_PT,
    MARKS_ALONG,
    ONE_TRIAL_OTHERS,
    THINNED_HIDDEN,
    bar_label_tops,
    dots_only,
)
from robot_msgs.report.figure_text import draw_quietly
from robot_msgs.report.figures import coordinate_ticks, figure_bytes, lone_points, new_figure

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.report.figure_spec import FigureSpec, Panel, Trace
    from robot_msgs.typing import Float64Array

__all__ = ["figure_png", "matplotlib_figure", "results_figure"]

_DPI = 100
_LINESTYLES: dict[str, Any] = {
    "solid": "-",
    "dash": "--",
    "dot": ":",
    "dashdot": "-.",
    "longdash": (0, (9, 3)),
    "longdashdot": (0, (9, 3, 1.5, 3)),
}
#: The described marks (plotly.js's symbol names) as matplotlib draws them.
_MARKERS = {
    "": "",
    "circle": "o",
    "triangle-up": "^",
    "square": "s",
    "diamond": "D",
    "triangle-down": "v",
    "x": "x",
}
#: The described hatches as matplotlib draws them (doubled: denser, as plotly.js's).
_HATCHES = {"/": "//", ".": "..", "x": "xx", "\\": "\\\\", "+": "++"}


def figure_png(fig: Any) -> bytes:
    """Render a report figure as PNG bytes (:func:`~robot_msgs.report.figures.figure_bytes`)."""
    return figure_bytes(fig, "png", _DPI)


def matplotlib_figure(spec: FigureSpec) -> Any:
    """Draw ``spec`` as a matplotlib ``Figure``: its panels in rows, one colour bar.

    A panel that shares the y axis of the one on its left leaves the axis's title to it.

    A legend without group headings prefixes each entry with its group's name where it
    holds entries of several titled groups (``kfslam/trial_1``); markers coloured on the
    colour scale are explained by the colour bar, not the legend.

    Raises
    ------
    FormatError
        A value to draw is past :data:`DRAWABLE` (nothing is drawn).
    """
    _refuse_undrawable(spec)
    fig = new_figure(*spec.size_in, dpi=_DPI, feature="report plots")
    grid = fig.add_gridspec(*spec.grid)
    axes: list[Any] = []
    mappable = None
    together: dict[str, Any] = {}  # the entries of the panels whose legend is the figure's
    for k, panel in enumerate(spec.panels):
        row, column, span = spec.place(k)
        shared = axes[-1] if panel.share_y and column else None
        ax = fig.add_subplot(grid[row, column : column + span], sharey=shared)
        axes.append(ax)
        drawn = _draw_panel(ax, panel, spec, shared=shared is not None, together=together)
        mappable = drawn or mappable
    if together:
        _figure_legend(fig, together, spec.size_in[0])
    if spec.colour_scale is not None and mappable is not None:
        fig.colorbar(mappable, ax=axes, label=spec.colour_scale.title, shrink=0.9)
    if spec.title:
        size = 11 if len(spec.panels) > 1 else 10.5
        # Wrapped to the figure's width (about 0.55 em a character): a long line was cut
        # on both sides of a 5.4 in figure (a review).
        fits = max(20, int(spec.size_in[0] * 72 / (size * 0.55)))
        # No hidden trace is drawn here: the title leaves out the points of the hidden
        # ones, which only the interactive figure draws (a review), and the legend that
        # shows them, which a PNG lacks (a user walk: --static said "the page's legend
        # shows the others" of 9 trials it drew nowhere).
        title = spec.title.replace(THINNED_HIDDEN, "").replace(ONE_TRIAL_OTHERS, "")
        lines = [textwrap.fill(line, fits) for line in title.split("\n")]
        fig.suptitle("\n".join(lines), fontsize=size)
    _room_for_bar_labels(fig)
    return fig


#: The largest magnitude matplotlib lays out: its violins square the values (past 1.3e154
#: is inf) and an axis from -1e308 to 1e308 has no tick step. Measured: errors of 1e152
#: are drawn; of 2e153, ``res --plot`` ended as "a bug" (overflow in the violin's ``dot``).
DRAWABLE = 1e152


def _refuse_undrawable(spec: FigureSpec) -> None:
    """Raise a FormatError naming the first panel with a finite value past :data:`DRAWABLE`."""
    for panel in spec.panels:
        for trace in panel.traces:
            for axis, values in (("x", trace.x), ("y", trace.y)):
                if isinstance(values, tuple) or not values.size:  # categories
                    continue
                finite = np.abs(values[np.isfinite(values)])
                if finite.size and (largest := float(finite.max())) > DRAWABLE:
                    title = panel.title or panel.y_title
                    msg = (
                        f"{title}: {axis} values up to {largest:.3g} are past what a "
                        f"figure can scale (at most {DRAWABLE:g} either way)"
                    )
                    raise FormatError(msg)


#: What marks a bar's label (:func:`_draw_grouped`) among an axes' texts.
_BAR_LABEL = "bar label"


def _room_for_bar_labels(fig: Any) -> None:
    """Raise the top of each axes with bar labels so that every label is inside it.

    A label sits a few points above its whisker, which is no data to the y axis: the
    highest one ran over the axes' top edge (a hunt). Measured on the laid-out figure:
    the top ``T`` keeping a label anchored at ``y`` with ``e`` pixels of text above it
    inside an axes ``H`` pixels high (``m`` to spare) is ``b + (y - b) H / (H - e - m)``,
    in the logarithms of ``T``, ``b`` and ``y`` on a log axis.
    """
    labelled = [ax for ax in fig.axes if any(t.get_gid() == _BAR_LABEL for t in ax.texts)]
    if not labelled:
        return
    draw_quietly(fig)  # the layout that saving draws
    renderer = fig.canvas.get_renderer()
    for ax in labelled:
        log = ax.get_yscale() == "log"
        bottom, top = (math.log10(v) if log else v for v in ax.get_ylim())
        height = ax.bbox.height
        wanted = top
        for text in ax.texts:
            if text.get_gid() != _BAR_LABEL:
                continue
            y = float(text.xy[1])
            above = text.get_window_extent(renderer).y1 - ax.transData.transform((0.0, y))[1]
            if height > above + 4.0 and (y > 0 or not log):
                y = math.log10(y) if log else y
                wanted = max(wanted, bottom + (y - bottom) * height / (height - above - 4.0))
        if wanted > top:
            ax.set_ylim(*((10**v if log else v) for v in (bottom, wanted)))


def _figure_legend(fig: Any, entries: dict[str, Any], width_in: float) -> None:
    """Draw one legend above the panels, in as many columns as fit the figure's width.

    WHY above, not in a panel: a panel's legend at ``best`` still sits on curves that
    fill the axes (``res --plot``'s errors over time and distance), and the same names
    were repeated in three panels.
    """
    widest = max(len(name) for name in entries)
    fits = max(1, int(width_in * 72 / (widest * 5.5 + 40)))  # 8 pt text, a line and gaps
    columns = min(len(entries), fits)
    fig.legend(
        list(entries.values()),
        list(entries),
        loc="outside upper center",
        ncols=columns,
        fontsize=8,
        frameon=False,
    )


def _draw_panel(
    ax: Any,
    panel: Panel,
    spec: FigureSpec,
    *,
    shared: bool = False,
    together: dict[str, Any] | None = None,
) -> Any:
    """Draw one panel's traces, axes and legend; return the colour-scaled markers, if any.

    A panel whose legend is the figure's adds its entries to ``together`` instead.
    """
    traces = [t for t in panel.traces if not t.hidden]
    titled = {t.group for t in traces if t.titled}
    named = (c for t in traces if isinstance(t.x, tuple) for c in t.x)
    categories = list(panel.categories or dict.fromkeys(named))
    grouped = [t for t in traces if isinstance(t.x, tuple)] if panel.grouped else []
    mappable, handles = None, []
    for t in traces:
        label = f"{t.group}/{t.name}" if t.titled and len(titled) > 1 and t.name else t.name
        style = {"color": t.colour, "lw": t.width, "ls": _LINESTYLES[t.dash], "label": label}
        if t.mark and t.kind in {"line", "step"}:
            every = max(1, len(t.x) // MARKS_ALONG)
            style |= {"marker": _MARKERS[t.mark], "markevery": every, "ms": 4.5}
        if t.kind == "line":
            x = np.asarray(t.x, dtype=np.float64)
            lone = lone_points(x, t.y)  # alone between gaps: no segment draws it
            dots = dots_only(t, lone)  # its legend entry a dot too, as drawn
            if not dots:
                ax.plot(t.x, t.y, **style)
            if lone.size:
                entry = {"label": label} if dots else {}
                ax.plot(x[lone], t.y[lone], ls="none", marker="o", ms=2.5, color=t.colour, **entry)
            if t.mark_end:
                ax.plot(t.x[-1:], t.y[-1:], "o", color=t.colour, ms=4)
        elif t.kind == "step":
            ax.step(t.x, t.y, where="post", **style)
        elif t.kind == "markers" and t.values is not None and spec.colour_scale is not None:
            scale = spec.colour_scale
            mappable = ax.scatter(
                t.x, t.y, c=t.values, s=t.size**2, cmap="viridis", vmin=scale.low, vmax=scale.high
            )
        elif t.kind == "markers":
            marker = _MARKERS[t.mark] or "o"
            edge = t.colour if marker == "x" else "black"  # an x is all edge
            look = {"marker": marker, "color": t.colour, "ms": t.size, "mec": edge, "mew": 0.6}
            ax.plot(t.x, t.y, ls="none", label=label, **look)
        elif t.kind == "span":
            hatch = "//" if t.hatched else None
            ax.axvspan(*t.x, color=t.colour, alpha=t.alpha, lw=0, hatch=hatch, label=label)
        elif t.kind == "histogram" and t.y.size:
            # In its dash: drawn solid, run_9's outline was run_1's (the legend dashed).
            ax.stairs(t.y, t.x, color=t.colour, lw=t.width, ls=style["ls"], label=label)
        elif t.kind == "histogram":  # no values: its legend entry only
            ax.plot([], [], color=t.colour, lw=t.width, ls=style["ls"], label=label)
        elif (handle := _draw_grouped(ax, t, grouped or [t], categories, label, panel)) is not None:
            handles.append(handle)
    if categories:
        # Long names slanted, so they do not run into each other; steeper past 20
        # characters (six names of 24-31 at 20 degrees touched in res --plot's boxes).
        # Past 28, shortened around an ellipsis: three of 51-55 characters took more
        # height than the row had, and the layout gave up (a hunt); the figure's legend
        # and the tables name them whole.
        shown = [_short_name(c) for c in categories]
        longest = max(len(c) for c in shown)
        slant = 0 if longest <= 12 else 20 if longest <= 20 else 35
        # Level names wider than their place (about 6.5 pt a character at the ticks'
        # 10 pt; the panel's width before the layout, a little less than after) ran into
        # each other: ten of 6 characters, 31 pt apart (a hunt). Slanted, they are
        # apart by their place times the sine; upright past that.
        place = ax.get_position().width * ax.figure.get_figwidth() * 72 / len(categories)
        if longest * 6.5 > place:
            slant = max(slant, 35 if place * 0.57 >= 11 else 90)
        ax.set_xticks(
            range(len(categories)),
            shown,
            rotation=slant,
            ha="right" if slant else "center",
            rotation_mode="anchor" if slant else "default",
        )
    # Wrapped to its panel's width (about 0.55 em a character at 10 pt): in rows of four,
    # 'alg09 1.4.2 (features=300, imu_rate_hz=200) (trial_1)' ran over its neighbours'
    # titles and off the figure's edge (a review). Titles that fit stay as they are.
    fits = max(16, int(ax.get_position().width * ax.figure.get_figwidth() * 72 / 5.5))
    lines = [
        line if len(line) <= fits else textwrap.fill(line, fits) for line in panel.title.split("\n")
    ]
    ax.set_title("\n".join(lines), fontsize=10)
    ax.set_xlabel(panel.x_title)
    ax.set_ylabel("" if shared else panel.y_title)
    if panel.equal_aspect:  # a view of positions
        ax.set_aspect("equal", adjustable="datalim")
        coordinate_ticks(ax)
    if panel.y_log:
        ax.set_yscale("log")
    elif panel.y_from_zero:
        ax.set_ylim(bottom=0.0)
    if panel.y_range is not None:
        ax.set_ylim(*panel.y_range)
    if panel.x_from_zero:
        ax.set_xlim(left=0.0)
    if panel.y_percent:
        from matplotlib.ticker import PercentFormatter  # noqa: PLC0415

        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    for y in panel.guides_y:
        ax.axhline(y, color="0.7", lw=0.6, ls=":")
    ax.grid(alpha=0.3, axis="y" if categories else "both")
    drawn, labels = ax.get_legend_handles_labels()
    entries = dict(zip(labels, drawn, strict=True)) | {h.get_label(): h for h in handles}
    entries = {k: v for k, v in entries.items() if k not in categories}  # named under the axis
    if entries and panel.legend == "figure" and together is not None:
        for name, handle in entries.items():
            together.setdefault(name, handle)
    elif entries:
        outside = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)}
        where = outside if panel.legend == "outside" else {"loc": panel.legend}
        ax.legend(entries.values(), entries.keys(), fontsize=7 if len(entries) > 3 else 8, **where)
    return mappable


def _short_name(name: str, most: int = 28) -> str:
    """Return ``name``, or its first and last characters around an ellipsis past ``most``.

    Examples
    --------
    >>> _short_name("kfslam"), _short_name("a_very_long_estimate_name_from_orbslam3_stereo")
    ('kfslam', 'a_very_long_e…rbslam3_stereo')
    """
    if len(name) <= most:
        return name
    head = (most - 1) // 2
    return f"{name[:head]}…{name[head - most + 1 :]}"


def _draw_grouped(
    ax: Any, trace: Trace, grouped: list[Trace], categories: list[str], label: str, panel: Panel
) -> Any:
    """Draw a box, violin or bar trace beside the others in ``grouped`` at each category.

    A bar's label stands where :func:`~robot_msgs.report.figure_spec.bar_label_tops`
    puts it in ``panel``.

    Return a box's or violin's legend handle.
    """
    from matplotlib.patches import Patch  # noqa: PLC0415

    # A hatch drawn dark on the fill (the edge's colour, the edge itself not drawn).
    hatch: dict[str, Any] = (
        {"hatch": _HATCHES[trace.hatch], "edgecolor": "0.2"} if trace.hatch else {}
    )
    width = 0.8 / len(grouped)
    offset = (grouped.index(trace) - (len(grouped) - 1) / 2) * width
    labels = np.array(trace.x)
    at = [c for c in categories if np.any(labels == c)]
    values = [trace.y[labels == c] for c in at]
    positions = [categories.index(c) + offset for c in at]
    if trace.kind == "box" and values:
        ax.boxplot(
            values,
            positions=positions,
            widths=width * 0.8,
            patch_artist=True,
            manage_ticks=False,
            boxprops={"facecolor": trace.colour, "alpha": trace.alpha} | hatch,
            medianprops={"color": "black"},
            flierprops={"markersize": 2, "markeredgecolor": trace.colour},
        )
    elif trace.kind == "violin" and values:  # from the smallest value to the largest, marked
        parts = ax.violinplot(values, positions=positions, widths=width * 0.8)
        for body in parts["bodies"]:
            body.set_facecolor(trace.colour)
            body.set_alpha(trace.alpha)
            if trace.hatch:
                body.set_hatch(_HATCHES[trace.hatch])
        for part in ("cbars", "cmins", "cmaxes"):
            parts[part].set_color("0.3")
    if trace.kind in {"box", "violin"}:
        return Patch(facecolor=trace.colour, alpha=trace.alpha, label=label, **hatch)
    x = np.array([categories.index(c) for c in trace.x]) + offset
    bare = hatch | {"lw": 0} if hatch else {}  # a hatched bar's hatch, not its outline
    ax.bar(x, trace.y, width * 0.9, color=trace.colour, alpha=trace.alpha, label=label, **bare)
    if trace.low is not None and trace.high is not None:
        whiskers = [trace.y - trace.low, trace.high - trace.y]
        ax.errorbar(x, trace.y, yerr=whiskers, fmt="none", color="black", capsize=3, lw=1)
    tops = bar_label_tops(trace, panel)
    # A label wider than its bar (about 4.2 pt a character at 7 pt; the panel's width
    # before the layout) stands upright: 36 bars on 16 in ran their labels together.
    bar_pt = ax.get_position().width * ax.figure.get_figwidth() * 72 * width / len(categories)
    longest = max((len(t) for t in trace.text or ()), default=0)
    upright = 90 if longest * 4.2 > bar_pt else 0
    for xi, top, text in zip(x, tops, trace.text or (), strict=False):
        ax.annotate(  # above the whisker's cap, not struck through by it
            text,
            (xi, top),
            textcoords="offset points",
            xytext=(0, BAR_LABEL_GAP_PT),
            ha="center",
            va="bottom" if upright else "baseline",
            rotation=upright,
            fontsize=7,
            gid=_BAR_LABEL,
        )
    return None


def results_figure(
    named: Sequence[tuple[str, EvaluationResult]],
    *,
    labels: Sequence[str] | None = None,
    distances: Sequence[Float64Array | None] | None = None,
) -> Any:
    """Draw the figure of ``robot-msgs res --plot``: saved results' errors side by side.

    Error over time and distance, box, violin and histogram, 13 x 8 in, as
    :func:`~robot_msgs.report.results_spec.results_spec` describes them.

    Raises
    ------
    FormatError
        The results' first signals have different units (they cannot share an axis), or
        an error is past :data:`DRAWABLE`.
    """
    from robot_msgs.report.results_spec import results_spec  # noqa: PLC0415

    return matplotlib_figure(results_spec(named, labels=labels, distances=distances))
