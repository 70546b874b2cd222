"""Paper-ready figures of evaluation results: format from the file name, words on the axes.

What ``robot-msgs ape/rpe/drift --plot`` and ``traj --plot`` draw, with matplotlib's
object API (no ``pyplot``, nothing global touched; the ``plot`` extra); the described
figures (:mod:`~robot_msgs.report.figure_spec`, :mod:`~robot_msgs.report.results_spec`)
take their words, gaps and distances from here:

- :func:`save_figure` writes PDF, SVG, EPS or PNG as the file name says (``--dpi`` for
  PNG; a figure ``W x H`` inches at ``D`` dpi is ``W*D x H*D`` pixels), without dates
  in the metadata, so the same figure gives the same bytes (:func:`figure_bytes`; the
  report's PNGs too, on a :func:`new_figure` as here).
- Trajectories are drawn in a plane (``xy``, ``xz``, ``yz``) or in 3-D (``xyz``); the
  default is the plane of the reference's two widest axes (:func:`auto_plane`).
- Errors are labelled in words with their parameters and unit (:func:`signal_label`,
  from the signal's typed fields), time as seconds since the first matched pose, or
  ``frame`` when the stamps are frame indices (KITTI files without a times file), lines
  are broken where samples are missing (:func:`break_gaps`), and one estimate's error
  plot shows its rms, mean and median.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.compare.signal import delta_words
from robot_msgs.errors import FormatError
from robot_msgs.evaluation.consistency import NEES_DOF
from robot_msgs.files import STDOUT, write_atomic
from robot_msgs.limits import check_dpi
from robot_msgs.optional import require
from robot_msgs.report.figure_text import (
    draw_quietly,
    fall_back_to_cjk,
    keep_text_plain,
    quiet_glyphs,
    time_axis_label,
)
from robot_msgs.rotations import euler_sxyz_from_quat_xyzw

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import ErrorSeries, Signal
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = [
    "FIGURE_FORMATS",
    "PALETTE",
    "PLANES",
    "auto_plane",
    "break_gaps",
    "coordinate_ticks",
    "curve_look",
    "drawn_at",
    "error_rows",
    "error_time_label",
    "evaluation_figure",
    "figure_bytes",
    "figure_format",
    "figure_size_in",
    "lone_points",
    "new_figure",
    "overlay_figure",
    "reference_distances_m",
    "roll_pitch_yaw_deg",
    "save_figure",
    "signal_label",
    "signal_words",
    "time_label",
]

#: Figure formats by file suffix.
FIGURE_FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg", ".eps": "eps"}
#: ``--plot-plane`` values: a plane of two axes, or ``xyz`` for a 3-D view.
PLANES = ("xy", "xz", "yz", "xyz")
#: Default PNG resolution.
DEFAULT_DPI = 150
_SIZES_IN = {"evaluation": (11.0, 4.5), "overlay": (14.0, 9.0)}
#: The colours of the estimates, in order, in every figure: matplotlib's tab10 without its
#: grey and olive (the reference is drawn grey), red second.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
#: Line styles (and markers for points) telling apart curves of one colour: an
#: estimate's signals, or the second round of colours past eight estimates.
_STYLES = (("-", "."), ("--", "x"), (":", "+"), ("-.", "1"))
#: Marks along a line (a dozen on it), telling apart curves of one colour and line style.
_ALONG = ("", "o", "^", "s", "D", "v")
#: Point markers telling apart point curves of one colour (the styles' first, then more).
_POINTS = (".", "x", "+", "1", "2", "3", "4", "*", "o", "^", "s", "D", "v", "<", ">", "p")
_METADATA = {"png": {"Software": None}, "pdf": {"CreationDate": None}, "svg": {"Date": None}}

_WORDS = {
    "translation": "translation error",
    "angle_deg": "rotation error",
    "angle_rad": "rotation error",
    "full": "full transformation error ‖E − I‖",
    "rot_part": "rotation part error ‖R − I‖",
    "point_distance": "point distance error",
    "point_distance_error_ratio": "point distance error ratio",
    "x": "x error (estimate − reference)",
    "y": "y error (estimate − reference)",
    "z": "z error (estimate − reference)",
    "translation_pct": "translation error per segment",
    "rotation_deg_per_m": "rotation error per segment",
    "translation_m_per_s": "translation error per second",
    "rotation_deg_per_s": "rotation error per second",
    "along_track": "along-track error (direction of motion)",
    "cross_track": "cross-track error (left of the motion)",
    "vertical": "vertical error (world z)",
    "along_track_body": "along-track error (reference body x)",
    "cross_track_body": "cross-track error (reference body y)",
    "vertical_body": "vertical error (reference body z)",
    # One wording for both units: a figure says [rad] or [deg] beside it.
    "roll_rad": "roll error (reference body x)",
    "roll_deg": "roll error (reference body x)",
    "pitch_rad": "pitch error (reference body y)",
    "pitch_deg": "pitch error (reference body y)",
    "yaw_rad": "yaw error (reference body z)",
    "yaw_deg": "yaw error (reference body z)",
    "roll_world_rad": "roll error (world x)",
    "roll_world_deg": "roll error (world x)",
    "pitch_world_rad": "pitch error (world y)",
    "pitch_world_deg": "pitch error (world y)",
    "yaw_world_rad": "yaw error (world z)",
    "yaw_world_deg": "yaw error (world z)",
    # A NEES is no error: unitless, its degrees of freedom where a consistent estimate's
    # mean lies (evaluation.consistency).
    "nees": "pose NEES (6 degrees of freedom)",
    "nees_position": "position NEES (3 degrees of freedom)",
    "nees_orientation": "orientation NEES (3 degrees of freedom)",
    "nees_planar": "planar NEES (x, y, yaw: 3 degrees of freedom)",
}


def figure_size_in(kind: str) -> tuple[float, float]:
    """Return the size in inches of a figure kind (``evaluation`` or ``overlay``).

    Examples
    --------
    >>> figure_size_in("evaluation")
    (11.0, 4.5)
    """
    return _SIZES_IN[kind]


def figure_format(path: str | os.PathLike[str], *, flag: str = "--plot") -> str:
    """Return the format a figure's file name says, or refuse naming the flag.

    A stream (``-`` for standard output, a device or a named pipe) gets PNG.

    Examples
    --------
    >>> figure_format("fig.PDF"), figure_format("a/b.svg")
    ('pdf', 'svg')
    >>> figure_format("fig.jpg")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: --plot fig.jpg: expected a file name ending in .png, .pdf, \
.svg or .eps
    """
    file = Path(path)
    if os.fspath(path) == STDOUT or (file.exists() and not file.is_file() and not file.is_dir()):
        return "png"
    fmt = FIGURE_FORMATS.get(file.suffix.lower())
    if fmt is None:
        msg = f"{flag} {path}: expected a file name ending in .png, .pdf, .svg or .eps"
        raise FormatError(msg)
    return fmt


def save_figure(
    fig: Any, path: str | os.PathLike[str], *, dpi: int | None = None, force: bool = False
) -> Path:
    """Write ``fig`` in the format its file name says (atomically); return the path.

    ``dpi`` sets a PNG's resolution (default 150); vector formats ignore it. No
    ``bbox_inches="tight"``: the file has the figure's size exactly. SVG text stays
    ``<text>``; PDF and EPS embed TrueType fonts.
    """
    fmt = figure_format(path)
    check_dpi(dpi)
    return write_atomic(path, figure_bytes(fig, fmt, dpi or DEFAULT_DPI), force=force)


def new_figure(
    width_in: float, height_in: float, *, dpi: float | None = None, feature: str = "--plot"
) -> Any:
    """Make a matplotlib ``Figure`` on an Agg canvas (the ``plot`` extra), constrained layout.

    No ``pyplot``: nothing global (backend, open figures) is touched. ``dpi`` ``None`` is
    matplotlib's default; ``feature`` is what the error names when the extra is missing.
    """
    require("matplotlib", "plot", feature=feature)
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: PLC0415 (extra)
    from matplotlib.figure import Figure  # noqa: PLC0415

    fig = Figure(figsize=(width_in, height_in), dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def figure_bytes(fig: Any, fmt: str, dpi: float) -> bytes:
    r"""Render ``fig`` as a ``png``, ``pdf``, ``svg`` or ``eps`` file's bytes, without dates.

    Text stays text: SVG keeps editable ``<text>``, PDF and EPS embed TrueType (Type 42)
    fonts, not Type 3, as journals ask; names with ``$`` are shown, not read as mathtext.
    The same figure gives the same bytes: no dates, and SVG ids from a fixed salt (random
    otherwise).

    Examples
    --------
    >>> fig = new_figure(2, 1)
    >>> _ = fig.add_subplot().plot([0, 1], [0, 1])
    >>> figure_bytes(fig, "png", 100)[:8], figure_bytes(fig, "pdf", 100)[:5]
    (b'\x89PNG\r\n\x1a\n', b'%PDF-')
    """
    keep_text_plain(fig)
    fall_back_to_cjk(fig)
    from matplotlib import rc_context  # noqa: PLC0415 (the plot extra)

    buffer = io.BytesIO()
    # rc_context sets and restores matplotlib's global settings (two threads may restore
    # each other's): a PNG, which none of them changes, is drawn without it.
    with (
        rc_context(
            {
                "svg.fonttype": "none",
                "svg.hashsalt": "robot_msgs",
                "pdf.fonttype": 42,
                "ps.fonttype": 42,
            }
        )
        if fmt != "png"
        else contextlib.nullcontext(),
        quiet_glyphs(),
    ):
        fig.savefig(buffer, format=fmt, dpi=dpi, metadata=_METADATA.get(fmt))
    data = buffer.getvalue()
    if fmt == "eps":  # matplotlib dates it by the clock, metadata or not: the line goes
        data = re.sub(rb"^%%CreationDate: [^\n]*\n", b"", data, count=1, flags=re.MULTILINE)
    return data


def signal_label(signal: Signal, *, parameters: bool = True) -> str:
    """Name a signal in words, with its parameters (a delta, a length) and its unit.

    Examples
    --------
    >>> from robot_msgs.compare import Signal
    >>> def one(quantity, unit, **parameters):
    ...     return Signal.of(quantity, unit, [1.0], stamps_s=[0.0], **parameters)
    >>> signal_label(one("translation", "m")), signal_label(one("angle_deg", "deg"))
    ('translation error [m]', 'rotation error [deg]')
    >>> signal_label(one("translation_pct", "%", length_m=100.0)), signal_label(one("full", ""))
    ('translation error per 100 m segment [%]', 'full transformation error ‖E − I‖')
    >>> signal_label(one("translation", "m", delta=1.0, delta_unit="s"))
    'translation error over 1 s [m]'
    >>> signal_label(one("translation", "m", delta=10.0, delta_unit="f"))
    'translation error over 10 frames [m]'
    >>> signal_label(one("translation", "m", delta=1.0, delta_unit="s"), parameters=False)
    'translation error [m]'
    """
    words = signal_words(
        signal.quantity,
        delta=signal.delta if parameters else None,
        delta_unit=signal.delta_unit or "",
        length_m=signal.length_m if parameters else None,
    )
    return f"{words} [{signal.unit}]" if signal.unit else words


def signal_words(
    quantity: str,
    *,
    delta: float | None = None,
    delta_unit: str = "",
    length_m: float | None = None,
) -> str:
    """Name a quantity in words, with its delta or segment length: :func:`signal_label`'s words.

    Examples
    --------
    >>> signal_words("angle_deg"), signal_words("translation", delta=10.0, delta_unit="f")
    ('rotation error', 'translation error over 10 frames')
    """
    words = _WORDS.get(quantity, quantity.replace("_", " "))
    # "over 1 m", not ", 1 m": "translation error, 1 m [m]" read as an error of 1 m (a
    # review); a segment's length is said as the segment.
    if delta is not None:
        words += f" over {delta_words(delta, delta_unit)}"
    if length_m is not None:
        words = words.replace(" per segment", "") + f" per {length_m:g} m segment"
    return words


def time_label(*, frames: bool, since: str = "the first matched pose") -> str:
    """Label a time axis: seconds since ``since``, or frames when stamps are frame indices.

    Examples
    --------
    >>> time_label(frames=False), time_label(frames=True)
    ('time since the first matched pose [s]', 'frame')
    """
    return "frame" if frames else f"time since {since} [s]"


def _reference_span(result: EvaluationResult) -> float:
    """Seconds of matched reference of ``result`` (-1 without any)."""
    stamps = result.reference.stamps_s
    return float(stamps[-1] - stamps[0]) if len(stamps) else -1.0


def auto_plane(positions_xyz: Float64Array) -> str:
    """Return the plane of the two axes along which ``positions_xyz`` spread most.

    ``xy`` for most robots; ``xz`` for KITTI's camera frame (y points down).

    Examples
    --------
    >>> auto_plane(np.array([[0.0, 0.0, 0.0], [10.0, 0.5, 3.0]]))
    'xz'
    >>> auto_plane(np.array([[0.0, 0.0, 0.0], [10.0, 0.0, 0.0]]))
    'xy'
    """
    if len(positions_xyz) < 2:
        return "xy"
    spans = np.ptp(positions_xyz, axis=0)
    # Widest first; of equal spans the earlier axis (a line along x is drawn in xy).
    a, b = sorted(int(k) for k in np.argsort(-spans, kind="stable")[:2])
    return "xyz"[a] + "xyz"[b]


def curve_look(k: int) -> tuple[str, int]:
    """Return the ``k``-th curve's colour and line style (an index into the line styles).

    The :data:`PALETTE`'s colours in turn; past eight curves the colours come round again
    in the next line style (solid, dashed, dotted, dash-dotted: matplotlib's ``-``,
    ``--``, ``:``, ``-.``, the described figures'
    :data:`~robot_msgs.report.figure_spec.DASHES`), so the ninth is no copy of the first
    (a hunt). The one rule of every figure whose curves outnumber the colours. Where a
    figure's dash says something else, the round is a hatch (bars, boxes:
    :data:`~robot_msgs.report.figure_spec.HATCHES`) or marks along the curve
    (:data:`~robot_msgs.report.figure_spec.MARKS`); where a colour's curves outnumber
    the dashes, they take marks too.

    >>> curve_look(0), curve_look(8), curve_look(9)
    (('#1f77b4', 0), ('#1f77b4', 1), ('#d62728', 1))
    """
    n = len(PALETTE)
    return PALETTE[k % n], k // n % len(_STYLES)


def lone_points(*series: Float64Array) -> IntpArray:
    """Return the rows finite in every series whose neighbours are not: a line skips them.

    A line draws a segment between two finite points; a point between two gaps (a
    keyframe estimate's sample between :func:`break_gaps`' breaks, a one-pose path) is
    no segment and was not drawn at all: two of 32 of ORB-SLAM's fr1_xyz keyframes'
    errors (a hunt). The figures mark these rows.

    Examples
    --------
    >>> lone_points(np.array([1.0, np.nan, 2.0, 3.0, np.nan, 4.0])).tolist()
    [0, 5]
    >>> lone_points(np.array([0.0, 1.0, np.nan]), np.array([np.nan, 1.0, 2.0])).tolist()
    [1]
    """
    finite = np.ones(len(series[0]), dtype=bool)
    for values in series:
        finite &= np.isfinite(values) if values.ndim == 1 else np.isfinite(values).all(axis=1)
    before = np.concatenate([[False], finite[:-1]])
    after = np.concatenate([finite[1:], [False]])
    return np.flatnonzero(finite & ~before & ~after)


def break_gaps(
    t: Float64Array, values: Float64Array, *, by: Float64Array | None = None
) -> tuple[Float64Array, Float64Array]:
    """Insert a NaN after every gap longer than 5 median steps, so lines do not bridge it.

    ``values`` may be ``(N,)`` or ``(N, D)``; both results have the gaps as extra rows.
    ``by``: the rows' stamps when ``t`` is another axis (the distance travelled), in the
    rows' order, either way round: a gap is a step of more than 5 median steps in size.

    Examples
    --------
    >>> t, v = break_gaps(np.array([0.0, 0.1, 0.2, 3.0]), np.array([1.0, 2.0, 3.0, 4.0]))
    >>> v.tolist()[:3], bool(np.isnan(v[3])), v.tolist()[4]
    ([1.0, 2.0, 3.0], True, 4.0)
    >>> d, v = break_gaps(np.array([0.0, 1, 2, 3]), np.ones(4), by=np.array([9, 8, 7, 1.0]))
    >>> d.tolist()
    [0.0, 1.0, 2.0, nan, 3.0]
    """
    if t.size < 3:
        return t, values
    steps = np.diff(t) if by is None else np.abs(np.diff(by))
    gaps = np.flatnonzero(steps > 5.0 * np.median(steps)) + 1
    t_out = np.insert(t, gaps, np.nan)
    v_out = np.insert(np.asarray(values, dtype=np.float64), gaps, np.nan, axis=0)
    return t_out, v_out


def roll_pitch_yaw_deg(quats_xyzw: Float64Array) -> Float64Array:
    """Return roll, pitch, yaw in degrees, ``(N, 3)``: static x-y-z angles, ``R = Rz Ry Rx``.

    The convention of evo_traj's ``--plot_mode`` rpy plots (``euler_from_matrix(R,
    "sxyz")``), gimbal lock included: :func:`robot_msgs.rotations.euler_sxyz_from_quat_xyzw`.

    Examples
    --------
    >>> s = np.sqrt(0.5)
    >>> roll_pitch_yaw_deg(np.array([[0.0, 0.0, s, s], [s, 0.0, 0.0, s]])).round(6) + 0.0
    array([[ 0.,  0., 90.],
           [90.,  0.,  0.]])
    """
    out: Float64Array = np.degrees(euler_sxyz_from_quat_xyzw(quats_xyzw))
    return out


def _axes(plane: str) -> tuple[int, ...]:
    return tuple("xyz".index(c) for c in plane)


def _view(fig: Any, where: Any, plane: str) -> Any:
    """Add the trajectory view: 2-D, or 3-D drawn in the order given (not by depth).

    By depth, a reference line under thousands of coloured points vanished; in order,
    the reference (drawn last, :data:`_REFERENCE_ZORDER`) stays in view.
    """
    if plane != "xyz":
        return fig.add_subplot(where)
    return fig.add_subplot(where, projection="3d", computed_zorder=False)


#: The reference is drawn above the estimates in every view, thin and grey.
_REFERENCE_ZORDER = 3.0


def _legend_below(ax: Any) -> None:
    """Put a panel's legend under it, where it hides no data: in two columns, or one.

    A 3-D view's goes under the figure (``outside lower left``, which the layout makes
    room for): under the panel it was cut at the image's edge, the layout engine leaving
    no room below a 3-D axes (a review). Under a 2-D panel, two columns of long file
    stems were wider than the panel: the layout squeezed the view to two thirds of its
    width to make room, and the legend ran off the image's left edge (a hunt). Measured
    on the laid-out figure, a legend more than a tenth wider than its panel is set in
    one column. It lies a few points under the axis' tick labels and title, measured too:
    0.14 of the panel's height under it, as it was, left a white band of about 100 pixels
    under the overlay's view, four rows tall (a review).
    """
    from matplotlib.transforms import ScaledTranslation  # noqa: PLC0415 (the plot extra)

    if ax.name == "3d":
        handles, labels = ax.get_legend_handles_labels()
        ax.figure.legend(handles, labels, loc="outside lower left", fontsize=8, ncols=2)
        return
    fig = ax.figure
    draw_quietly(fig)  # the tick labels set, to measure
    under_in = (ax.bbox.y0 - ax.xaxis.get_tightbbox(fig.canvas.get_renderer()).y0) / fig.dpi
    anchor = ax.transAxes + ScaledTranslation(0.0, -under_in - 0.05, fig.dpi_scale_trans)
    below = {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0), "fontsize": 8}
    below |= {"bbox_transform": anchor, "borderaxespad": 0.0}
    legend = ax.legend(ncols=2, **below)
    if len(legend.get_texts()) > 1:
        draw_quietly(ax.figure)
        if legend.get_window_extent().width > 1.1 * ax.bbox.width:
            ax.legend(ncols=1, **below)


#: The least height of an evaluation figure's panels (in) over a legend under both:
#: what a legend of two rows leaves them in the 11 x 4.5 in figure.
_PANELS_IN = 2.6
#: The most curves of estimates whose names are listed under each panel of an evaluation
#: figure (each estimate's, or each of its signals').
_LEGENDS_APART = 4


def _legend_under_both(view: Any, err: Any) -> None:
    """Put one legend under both panels: each curve over time, then the reference.

    Past :data:`_LEGENDS_APART` curves each panel's legend under it, one or two
    columns, listed the same names twice and took the figure's height from the panels:
    twenty estimates' left them none in the 11 x 4.5 in figure, and nine estimates'
    three deltas ran off its foot (a hunt). One legend, in as many columns as fit the
    figure's width (about 5.5 pt a character of its 8 pt text, and a line and gaps),
    under both; the view draws each estimate in its first curve's colour and style.
    """
    handles, labels = err.get_legend_handles_labels()
    drawn, names = view.get_legend_handles_labels()  # the estimates', then the reference's
    handles.append(drawn[-1])
    labels.append(names[-1])
    fig = view.figure
    widest = max(len(name) for name in labels)
    fits = max(1, int(fig.get_figwidth() * 72 / (widest * 5.5 + 40)))
    fig.legend(handles, labels, loc="outside lower center", ncols=fits, fontsize=8)
    # A legend of many long names took the panels' height: nine estimates' three deltas,
    # 46-character names in two columns of 14 rows, left them 1.2 in of the 4.5 in
    # figure (a hunt). The figure grows by what the panels lack, as the report's figures
    # grow with their legends; measured on the laid-out figure.
    draw_quietly(fig)
    lack = _PANELS_IN - min(view.bbox.height, err.bbox.height) / fig.dpi
    if lack > 0:
        fig.set_figheight(fig.get_figheight() + lack)


def _draw_path(ax: Any, traj: PoseTrajectory, axes: tuple[int, ...], **style: Any) -> None:
    _, xyz = break_gaps(traj.stamps_s, traj.positions_xyz)
    ax.plot(*(xyz[:, k] for k in axes), **style)
    lone = lone_points(xyz)
    if lone.size:  # a pose alone between gaps: no segment to draw it
        dot = {"color": style["color"], "zorder": style.get("zorder"), "ls": "none"}
        ax.plot(*(xyz[lone, k] for k in axes), marker="o", ms=2.5, **dot)


def _plain_coordinates(ax: Any, axis: str = "both") -> None:
    """Label ``ax``'s position ticks with the coordinates themselves, never an offset.

    georeferenced.tum's view read ``y [m]`` 250..500 under a "+5.429e6", beside an x axis
    of whole eastings: matplotlib offsets an axis only where that saves four digits.
    Scientific notation stays for positions past 1e9 m (none) and under 1e-5 m. Whole
    parts of five digits or more are grouped by threes, "5,429,400", as the interactive
    report's plotly.js writes them (its ``separatethousands`` off: "2500" stays).
    """
    ax.ticklabel_format(axis=axis, useOffset=False, scilimits=(-5, 9))
    names = ("x", "y", "z") if axis == "both" else (axis,)
    for name in names:
        if (scale := getattr(ax, f"{name}axis", None)) is not None:
            formatter = scale.get_major_formatter()
            if type(formatter).__name__ == "ScalarFormatter":
                scale.set_major_formatter(_grouped_formatter(formatter))


def _grouped_formatter(plain: Any) -> Any:
    """Return a ``ScalarFormatter`` like ``plain`` that groups long whole parts by threes."""
    from matplotlib.ticker import ScalarFormatter  # noqa: PLC0415 (the plot extra)

    class Grouped(ScalarFormatter):
        def __call__(self, x: float, pos: int | None = None) -> str:
            return _GROUPED.sub(lambda m: f"{m[1]}{int(m[2]):,}", str(super().__call__(x, pos)))

    grouped = Grouped(useOffset=False, useMathText=plain.get_useMathText())
    grouped.set_powerlimits((-5, 9))
    return grouped


#: A tick label's sign (U+2212 or "-") and whole part of five digits or more.
_GROUPED = re.compile(r"^([\u2212-]?)(\d{5,})")


def _label_plane(ax: Any, plane: str) -> None:
    ax.set_xlabel(f"{plane[0]} [m]")
    ax.set_ylabel(f"{plane[1]} [m]")
    _plain_coordinates(ax)
    if plane == "xyz":
        # Four ticks a 3-D axis, and the whole box shrunk a little: at matplotlib's
        # default the z tick labels overprinted each other, the z label and the next panel.
        ax.locator_params(nbins=4)
        ax.set_zlabel("z [m]", labelpad=8)
        # Equal scales: every axis spans the widest one's range about its own middle, in
        # a cube. set_aspect("equal") then set_box_aspect(None, zoom=...) reset the box
        # to 4:4:3 and drew KITTI 00's flat loop as a diagonal (a review).
        limits = np.array([ax.get_xlim3d(), ax.get_ylim3d(), ax.get_zlim3d()])
        middle, half = limits.mean(axis=1), 0.5 * float(np.ptp(limits, axis=1).max())
        ax.set_xlim3d(middle[0] - half, middle[0] + half)
        ax.set_ylim3d(middle[1] - half, middle[1] + half)
        ax.set_zlim3d(middle[2] - half, middle[2] + half)
        ax.set_box_aspect((1.0, 1.0, 1.0), zoom=0.8)
        for axis in (ax.xaxis, ax.yaxis):  # a northing's seven digits ran into "y [m]"
            labels = axis.get_major_formatter().format_ticks(axis.get_ticklocs())
            extra = max(0, max(map(len, labels), default=0) - 6)
            # A 3-D tick label is centred on its place and reaches back half its width:
            # grouped by threes, the last easting ran into the first northing at the
            # box's corner ("458,1005,429,250", ape's view of georeferenced.tum). Long
            # labels stand 4 pt further out a character, and the axis label with them.
            if extra:  # (a view without ticks has no pad to read)
                axis.set_tick_params(pad=axis.get_major_ticks()[0].get_pad() + 4.0 * extra)
            axis.labelpad = 4.0 + 10.0 * extra
    else:
        ax.set_aspect("equal", adjustable="datalim")
        _x_ticks_apart(ax)


def coordinate_ticks(ax: Any) -> None:
    """Label a 2-D position view's ticks as the coordinates themselves, apart.

    ``--plot``'s view and the report's trajectory views (:mod:`robot_msgs.report.plots`)
    alike: the report's georeferenced.tum view still read "+5.429e6" over run-together
    eastings after ``--plot``'s was mended.
    """
    _plain_coordinates(ax)
    _x_ticks_apart(ax)


def _x_ticks_apart(ax: Any) -> None:
    """Space the x ticks of a 2-D view so that their labels stand apart.

    georeferenced.tum's eastings, 25 m apart, ran into one another in the ``ape`` view
    (``457950457975458000``). As many ticks as labels this wide fit the panel (6 pt a
    character at the ticks' 10 pt, and 6 pt between), measured on the panel's width
    before the layout, narrower than after: KITTI 00 keeps its ticks 100 m apart.
    Only fewer ticks than matplotlib's own count (at most 9, one per 30 pt) are asked
    for: asking for that many or more changed views whose labels already stood apart
    (fr1's ``traj`` view went from 0.1 m to 0.05 m, its ``ape`` view to 0.2 m).
    """
    labels = ax.xaxis.get_major_formatter().format_ticks(ax.get_xticks())
    widest = max((len(label) for label in labels), default=1)
    width_pt = ax.get_position().width * ax.figure.get_figwidth() * 72
    fit = max(2, int(width_pt // (widest * 6 + 6)))
    if fit < min(ax.xaxis.get_tick_space(), 9):  # MaxNLocator's "auto" count
        ax.locator_params(axis="x", nbins=fit)


def evaluation_figure(
    entries: Sequence[tuple[str, EvaluationResult]],
    signals: Sequence[Signal],
    *,
    title: str,
    plane: str | None = None,
) -> Any:
    """Draw the trajectories and the errors of one or several estimates against a reference.

    Parameters
    ----------
    entries : sequence of (label, EvaluationResult)
        The results to draw: their matched reference (the one spanning the longest
        time), their estimates aligned (:attr:`EvaluationResult.aligned_estimate`, as
        ``--save-aligned`` writes them).
    signals : sequence of Signal
        The signals to draw over time (each result's signal of that name); with one
        entry and one signal, the trajectory is coloured by it (colour bar), and its rms,
        mean and median (its statistics) are drawn as lines. Several signals are labelled
        by their parameters (a delta, a segment length).
    title : str
        Title of the error axes.
    plane : {"xy", "xz", "yz", "xyz"}, optional
        Trajectory view; default :func:`auto_plane` of the reference.

    The time axis says where each error is drawn (:func:`drawn_at`: ``segment start``,
    ``pair end``), and ``frame`` when the estimate's stamps are frame indices (KITTI
    without a times file). The figure is 11 x 4.5 in (:func:`figure_size_in`), taller
    where one legend under both panels needs it (:func:`_legend_under_both`).
    """
    fig = new_figure(*_SIZES_IN["evaluation"])
    # The reference drawn (and its plane) is the widest of the matched ones: the first
    # estimate's was drawn, so a short first estimate drew 40 poses of reference under
    # a whole other estimate, and the view changed with the order of the files (a review).
    first = max((r for _, r in entries), key=_reference_span)
    plane = plane or auto_plane(first.reference.positions_xyz)
    axes = _axes(plane)
    grid = fig.add_gridspec(1, 2, width_ratios=(1, 1.4))
    top = _view(fig, grid[0], plane)
    err = fig.add_subplot(grid[1])
    single = len(entries) == 1 and len(signals) == 1
    together = len(entries) > 1 and len(entries) * len(signals) > _LEGENDS_APART
    for k, (label, result) in enumerate(entries):
        colour, nth = curve_look(k)
        # As its first curve over time, which one legend names for both panels: the
        # ninth of nine estimates over three deltas was drawn blue and dashed, as the
        # first's second delta is.
        nth *= len(signals) if together else 1
        dash = _STYLES[nth % len(_STYLES)][0]
        along = _ALONG[nth // len(_STYLES) % len(_ALONG)]
        marks = {"marker": along, "markevery": 0.08, "ms": 4} if along else {}
        shown = result.comparison.signal(signals[0].name)
        series = shown.series if shown is not None else None
        if single and shown is not None and series is not None and len(series):
            good = np.isfinite(series.errors)
            # Filled dots of (sqrt(6) + 1) pt without an edge: the dots scatter draws by
            # default at s=6 with a 1 pt edge in the face's colour, but Agg strokes each
            # edge apart, 70% of drawing them: `ape --plot` of 10^6 poses took 12.9 s of
            # CPU, now 6.4 s. The PNG differs in rim pixels only, by 18/255 at most.
            points = top.scatter(
                *(
                    result.aligned_estimate.positions_xyz[error_rows(result, series)[good], a]
                    for a in axes
                ),
                c=series.errors[good],
                s=(6**0.5 + 1.0) ** 2,
                linewidths=0,
                cmap="viridis",
            )
            # The error axis beside it names the quantity: one label per quantity.
            fig.colorbar(points, ax=top)
            # Its legend entry in the colour map's middle: the first point's colour (the
            # largest error's yellow for KITTI 00 ORB) said nothing (a review).
            top.plot(
                [], [], ls="", marker="o", ms=4, color=points.cmap(0.5),
                label=f"{label} (colour: {_colour_word(signals[0])}, as on the right)",
            )  # fmt: skip
        else:
            drawn_as = {"color": colour, "ls": dash, "lw": 1.0, "label": label}
            _draw_path(top, result.aligned_estimate, axes, **drawn_as, **marks)
    _draw_path(
        top,
        first.reference,
        axes,
        color="0.35",
        lw=0.9,
        label="reference",
        zorder=_REFERENCE_ZORDER,
    )
    _label_plane(top, plane)
    if not together:
        _legend_below(top)
    top.set_title(f"{plane} view" if plane != "xyz" else "3-D view")
    t0 = min(float(r.estimate.stamps_s[0]) for _, r in entries if len(r.estimate))
    # WHY: a drift's translation in % beside its rotation in deg/m (plot(names), res
    # --signal) were both "0.25 m" in the legend under the first's axis label: each curve
    # says its quantity where the signals hold several (a review).
    mixed = len({s.quantity for s in signals}) > 1
    for k, (label, result) in enumerate(entries):
        for j, wanted in enumerate(signals):
            signal = result.comparison.signal(wanted.name)
            if signal is None or signal.series is None:
                continue
            series = signal.series
            # One estimate: a colour a signal (drift's lengths). Several: the estimate's
            # colour in the view, a line style a signal; k + j gave "est: 2 s" and
            # "est2: 1 s" one colour, est2's in the view (a hunt).
            # Past eight colours, the colours again in another line style. Several of
            # both: a colour's curves (its estimates' signals, round by round) take the
            # styles in turn, then marks too: estimate 9's first delta was drawn as
            # estimate 1's, blue and solid (a hunt).
            if len(entries) == 1:
                colour, nth = curve_look(j)
            else:
                colour, nth = curve_look(k)
                nth = nth * len(signals) + j if len(signals) > 1 else nth
            look = _STYLES[nth % len(_STYLES)]
            along = _ALONG[nth // len(_STYLES) % len(_ALONG)]
            dof = NEES_DOF.get(signal.quantity)
            curve = (
                _colour_word(signal)
                if len(signals) == 1
                else signal_label(signal)
                if mixed
                else _parameters(signal)
            )
            if len(entries) == 1:
                name = curve
            else:  # one curve an estimate: its name says it all
                name = label if len(signals) == 1 else f"{label}: {curve}"
            times = series.stamps_s - t0
            if times.size > 1 and bool((times[1:] > times[:-1]).all()):
                t, e = break_gaps(times, series.errors)
                marks = (
                    {"marker": along, "markevery": max(1, t.size // 12), "ms": 4} if along else {}
                )
                err.plot(t, e, lw=1, color=colour, ls=look[0], label=name, **marks)
                lone = lone_points(t, e)
                if lone.size:  # an error alone between gaps: no segment to draw it
                    err.plot(t[lone], e[lone], ls="none", marker="o", ms=2.5, color=colour)
            else:  # overlapping pairs or segments: points, not a line
                point = _POINTS[nth % len(_POINTS)]
                err.plot(times, series.errors, point, ms=2, color=colour, label=name)
            if single:
                stats = signal.stats
                lines = (
                    (
                        (stats.rms, "rms", "--"),
                        (stats.mean, "mean", ":"),
                        (stats.median, "median", "-."),
                    )
                    if dof is None
                    # an rms of a NEES means nothing: its mean, and where a consistent one lies
                    else ((stats.mean, "mean", ":"), (float(dof), "consistent mean", "--"))
                )
                for value, word, style in lines:
                    text = f"{word} {value:.4g} {signal.unit}".rstrip()
                    err.axhline(value, color="0.2", ls=style, lw=1, label=text)
    when = time_label(frames=first.estimate.stamps_are_frames)
    head = entries[0][1]
    at = drawn_at(head, head.comparison.signal(signals[0].name))
    err.set_xlabel(time_axis_label(when, at))
    if mixed:
        units = ", ".join(dict.fromkeys(s.unit for s in signals if s.unit))
        err.set_ylabel(f"{_colour_word(signals[0])} [{units}]" if units else "value")
    else:
        err.set_ylabel(signal_label(signals[0], parameters=len(signals) == 1))
    if together:
        _legend_under_both(top, err)
    elif len(entries) > 1:  # a name an estimate: inside, at "best", it lay on the curves
        _legend_below(err)
    else:
        err.legend(loc="best", fontsize=8)
    err.set_title(title)
    err.grid(alpha=0.3)
    return fig


def _colour_word(signal: Signal) -> str:
    """Return what the colours show: the error, or a NEES (no error: see rank_target)."""
    return "NEES" if signal.quantity in NEES_DOF else "error"


def _parameters(signal: Signal) -> str:
    """Return a signal's parameters in words (``1 s``, ``2 frames``, ``100 m``), else its name."""
    if signal.delta is not None:
        return delta_words(signal.delta, signal.delta_unit or "")
    if signal.length_m is not None:
        return f"{signal.length_m:g} m"
    return signal.name


def overlay_figure(
    reference: PoseTrajectory | None,
    estimates: Sequence[tuple[str, PoseTrajectory]],
    *,
    plane: str | None = None,
) -> Any:
    """Overlay trajectories as ``evo_traj -p`` does: a view, x/y/z, roll/pitch/yaw and speed.

    ``reference`` (grey) may be ``None``; ``estimates`` are drawn in colour, each as
    given (align them first to compare). Time is seconds since the earliest first
    stamp, or frames when the stamps are frame indices; roll, pitch and yaw
    (:func:`roll_pitch_yaw_deg`, in [-180, 180]) break where they wrap; speed is the
    distance between consecutive poses over their time step (m/s, or m/frame).
    """
    fig = new_figure(*_SIZES_IN["overlay"])
    drawn = ([("reference", reference)] if reference is not None else []) + list(estimates)
    frames = any(traj.stamps_are_frames for _, traj in drawn)
    plane = plane or auto_plane(drawn[0][1].positions_xyz)
    axes = _axes(plane)
    grid = fig.add_gridspec(4, 3, width_ratios=(1.3, 1, 1))
    view = _view(fig, grid[:, 0], plane)
    xyz_axes = [fig.add_subplot(grid[i, 1]) for i in range(3)]
    rpy_axes = [fig.add_subplot(grid[i, 2], sharex=xyz_axes[0]) for i in range(3)]
    speed = fig.add_subplot(grid[3, 1:], sharex=xyz_axes[0])
    t0 = min(float(traj.stamps_s[0]) for _, traj in drawn if len(traj))
    for k, (label, traj) in enumerate(drawn):
        is_ref = reference is not None and k == 0
        first = 1 if reference is not None else 0
        colour, look = curve_look(k - first)
        style: dict[str, Any] = {
            "color": "0.35" if is_ref else colour,
            "lw": 0.9 if is_ref else 1.0,
            "ls": "--" if is_ref else _STYLES[look][0],
            "zorder": _REFERENCE_ZORDER if is_ref else 2.0,  # the reference in every view
        }
        _draw_path(view, traj, axes, label=label, **style)
        t = traj.stamps_s - t0
        tt, xyz = break_gaps(t, traj.positions_xyz)
        angles = roll_pitch_yaw_deg(traj.orientations_quat_xyzw)
        for i in range(3):
            xyz_axes[i].plot(tt, xyz[:, i], **style)
            # A wrap through ±180° is a break in the line, not a stroke across the plot.
            ta, a = break_gaps(t, angles[:, i])
            wraps = np.flatnonzero(np.abs(np.diff(a)) > 180.0) + 1
            rpy_axes[i].plot(np.insert(ta, wraps, np.nan), np.insert(a, wraps, np.nan), **style)
        if len(traj) > 1:
            step = np.linalg.norm(np.diff(traj.positions_xyz, axis=0), axis=1)
            ts, v = break_gaps(t[1:], step / np.diff(traj.stamps_s))
            speed.plot(ts, v, **style)
    _label_plane(view, plane)
    _legend_below(view)
    view.set_title(f"{plane} view" if plane != "xyz" else "3-D view")
    unit = "frame" if frames else "s"
    for i, name in enumerate("xyz"):
        xyz_axes[i].set_ylabel(f"{name} [m]")
        _plain_coordinates(xyz_axes[i], "y")
        rpy_axes[i].set_ylabel(f"{('roll', 'pitch', 'yaw')[i]} [deg]")
    for ax in (*xyz_axes, *rpy_axes, speed):
        ax.grid(alpha=0.3)
    for ax in (xyz_axes[2], rpy_axes[2], speed):
        ax.set_xlabel(time_label(frames=frames, since="the first pose"))
    speed.set_ylabel(f"speed [m/{unit}]")
    return fig


def reference_distances_m(result: EvaluationResult, series: ErrorSeries) -> Float64Array | None:
    """Path distance along the matched reference at each error of ``series``, metres.

    None when the result keeps no matched reference (evo's zips: their own distances
    are read by :func:`~robot_msgs.report.saved_results.error_distances_m`).
    """
    ref = result.reference.positions_xyz
    if len(ref) < 2 or len(result.reference) != len(result.estimate):
        return None
    travelled = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(ref, axis=0), axis=1))])
    rows = error_rows(result, series)
    if rows.size and int(rows.max()) >= travelled.size:
        return None
    out: Float64Array = travelled[rows]
    return out


def error_rows(result: EvaluationResult, series: ErrorSeries) -> IntpArray:
    """Return the matched pose each error of ``series`` is drawn at: the one it is stamped at.

    An APE error's own pose, an evo RPE pair's end (:meth:`ErrorSeries.rows`), but a
    drift segment's and a TUM-protocol RPE pair's start, where their time axis puts them
    (stamped with the reference's or the estimate's stamp there): drawn at the segment's
    end in the view and along the distance, a KITTI segment's error lit up 400 m from
    where the time axis put it, and the first 400 m had none (a hunt).
    """
    starts = _start_rows(result, series)
    return series.rows() if starts is None else starts


def _start_rows(result: EvaluationResult, series: ErrorSeries) -> IntpArray | None:
    """Return the pairs' start rows where each error carries its start's stamp, else None."""
    pairs = series.pairs
    if pairs is None or not len(pairs):
        return None
    for traj in (result.reference, result.estimate):
        stamps = traj.stamps_s
        if int(pairs.max()) < len(stamps):
            at = stamps[pairs]
            if np.array_equal(at[:, 0], series.stamps_s) and not np.array_equal(
                at[:, 1], series.stamps_s
            ):
                starts: IntpArray = pairs[:, 0]
                return starts
    return None


def drawn_at(result: EvaluationResult, signal: Signal | None) -> str:
    """Say which pose of a pair or segment each error of ``signal`` is drawn at, or ``""``.

    ``segment start`` for a drift result's (its errors carry their segment's first
    stamp), ``pair end`` or ``pair start`` for an RPE's (evo's: the end; TUM's: the
    start), ``""`` for an error at its own pose (APE). Said on the time axis
    (:func:`~robot_msgs.report.figure_text.time_axis_label`) and in the title
    (:func:`~robot_msgs.report.figure_text.over_time`) of ``--plot`` and ``res`` alike.
    """
    series = signal.series if signal is not None else None
    if series is None:
        return ""
    # A drift's by its segment lengths, not its pairs: a saved one without them (a hand-
    # written file) said "" here, where ``drift --plot`` and ``plot()`` said the start.
    if any(s.length_m is not None for s in result.comparison.signals):
        return "segment start"
    if series.pairs is None:
        return ""
    return "pair end" if _start_rows(result, series) is None else "pair start"


def error_time_label(results: Sequence[EvaluationResult], at: str = "") -> str:
    """Label the time axis of saved results: seconds, or ``frame`` for frame-index stamps.

    KITTI results read without a times file (ours, and evo's zips without
    ``timestamps.npy``) have frame indices for stamps, not seconds. ``at``: where each
    error is drawn (:func:`drawn_at`), said as ``--plot`` says it.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> kitti = NS(estimate=NS(stamps_are_frames=True))
    >>> tum = NS(estimate=NS(stamps_are_frames=False))
    >>> error_time_label([kitti]), error_time_label([tum])
    ('frame', "time since the result's first error [s]")
    >>> error_time_label([kitti, tum])
    "time since the result's first error [s], or frame (KITTI)"
    """
    frames = {bool(r.estimate.stamps_are_frames) for r in results}
    seconds = time_label(frames=False, since="the result's first error")
    if frames == {True}:
        return time_axis_label(time_label(frames=True), at)
    return time_axis_label(f"{seconds}, or frame (KITTI)" if True in frames else seconds, at)
