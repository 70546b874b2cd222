"""Text in figures drawn as written: names are never parsed as mathtext.

Matplotlib reads a string holding two ``$`` as mathtext (its TeX subset): a run or file
named ``x$^$.txt`` stopped ``--plot`` with the mathtext parser's traceback, and a name
such as ``a$_1$b`` would be typeset, not shown. Every title, axis label, legend entry and
annotation of a figure is set to plain text before it is drawn
(:func:`keep_text_plain`); tick labels keep mathtext, which Matplotlib's own formatters
write for exponents.

Names are drawn in any script the machine has a font for: DejaVu Sans, Matplotlib's
default, has no CJK, and an algorithm named ``视觉里程计`` was drawn as boxes with a
"Glyph ... missing from font(s) DejaVu Sans" warning, an error under ``-W error`` (a
hunt). Every text falls back glyph by glyph (Matplotlib >= 3.6) to the CJK fonts
installed (:data:`CJK_FAMILIES`, :func:`fall_back_to_cjk`); without one, the boxes stay
and the warning is dropped (:func:`draw_quietly`, :func:`quiet_glyphs`): the tables
name the runs as written.

The words both figure backends (Matplotlib files, plotly pages) show are decided here
once: the legend name of an input (:func:`legend_names`: its file stem, or ``--label``),
and a title over the time axis and its label (:func:`over_time`, :func:`time_axis_label`).
"""

from __future__ import annotations

import contextlib
import warnings
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = [
    "CJK_FAMILIES",
    "cjk_fonts",
    "draw_quietly",
    "fall_back_to_cjk",
    "keep_text_plain",
    "legend_names",
    "over_time",
    "quiet_glyphs",
    "time_axis_label",
]

#: Fonts with CJK glyphs, tried in turn after a text's own font where installed: Noto
#: Sans CJK (Debian's fonts-noto-cjk), Source Han Sans (the same, Adobe's name),
#: WenQuanYi, Droid Sans Fallback (Android's), and the Japanese IPA fonts.
CJK_FAMILIES = (
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "Noto Sans CJK TC",
    "Noto Sans CJK KR",
    "Source Han Sans",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Droid Sans Fallback",
    "IPAGothic",
    "IPAexGothic",
)


def over_time(what: str, *, frames: bool, at: str = "") -> str:
    """Title ``what`` drawn along the time axis, as the axis says it (:func:`time_axis_label`).

    ``over time``, or ``over frames`` on frame-index stamps (a KITTI estimate without a
    times file); with ``at``, the pose of a pair or segment each error is drawn at:
    ``over frames (at pair end)``. WHY: "APE over time" over an axis of frames, then
    "RPE per frame, delta 10 m, 100 m", which read as normalised per frame (a review):
    an error over a 10 m pair, drawn at the pair's end frame. Then "RPE over pair end
    (frame)", which is no English a reader says (a review): the axis stays the noun.

    Examples
    --------
    >>> over_time("APE", frames=False), over_time("error", frames=True)
    ('APE over time', 'error over frames')
    >>> over_time("RPE", frames=True, at="pair end")
    'RPE over frames (at pair end)'
    """
    along = f"{what} over {'frames' if frames else 'time'}"
    return f"{along} (at {at})" if at else along


def time_axis_label(when: str, at: str = "") -> str:
    """Label a time axis ``when`` (seconds or ``frame``), said at ``at`` of each pair or segment.

    One wording for every figure: ``drift --plot`` said "segment start: frame" and ``res``
    of the same drift result "frame" (a review).

    >>> time_axis_label("frame", "segment start"), time_axis_label("frame")
    ('segment start: frame', 'frame')
    """
    return f"{at}: {when}" if at else when


def _stem(path: str) -> str:
    return PurePath(path.removeprefix("example:")).stem or path


def legend_names(paths: Sequence[str], labels: Sequence[str] | None = None) -> list[str]:
    """Name each input in a legend: ``labels`` (``--label``) when given, else its file stem.

    A path as typed (``/work/data/run_3/est.txt``) runs across a panel and hides data;
    the stem says which input it is. Inputs whose stems are the same are named by their
    parent folder too (``dvo/est``), and by the whole path if that is still not unique;
    an input given again is numbered (``est (2)``): a figure draws equal names as one.

    Raises
    ------
    ValidationError
        ``labels`` given, but not one per input, one of them twice, or one blank
        (field ``labels``).

    Examples
    --------
    >>> legend_names(["/data/fr1/rgbdslam.txt", "example:fr1_xyz/groundtruth.tum"])
    ['rgbdslam', 'groundtruth']
    >>> legend_names(["a/run/est.txt", "b/run2/est.txt"])
    ['run/est', 'run2/est']
    >>> legend_names(["a/est.txt", "a/est.txt"])  # one figure category, one entry each
    ['est', 'est (2)']
    >>> legend_names(["a.txt", "b.txt"], ["ORB-SLAM3", "DSO"])
    ['ORB-SLAM3', 'DSO']
    >>> legend_names(["a.txt", "b.txt"], ["ORB-SLAM3"])
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: `labels=`: 1 given for 2 inputs (a.txt, b.txt); give one \
per input, in order
    """
    if labels:
        twice = [label for label in labels if labels.count(label) > 1]
        blank = [label for label in labels if not label.strip()]
        why = ""
        if len(labels) != len(paths):
            why = (
                f"{len(labels)} given for {len(paths)} input{'s' * (len(paths) != 1)} "
                f"({', '.join(paths)}); "
                "give one per input, in order"
            )
        elif twice:  # one legend entry and one box for both (a hunt)
            why = f"{twice[0]!r} given twice; give each input a name of its own"
        elif blank:  # a legend entry without a name (a review)
            why = f"{blank[0]!r} is blank; give each input a name that shows"
        if why:  # the argument's value: said with the command line's --label (exit 2)
            msg = f"`labels=`: {why}"
            raise ValidationError(msg, field="labels", reason=why)
        return list(labels)
    distinct = list(dict.fromkeys(paths))  # a path given twice is named as once, then numbered
    names = [_stem(p) for p in distinct]
    if len(set(names)) < len(names):
        names = [
            "/".join((PurePath(p.removeprefix("example:")).parent.name, _stem(p))).lstrip("/")
            for p in distinct
        ]
    if len(set(names)) < len(names):
        names = list(distinct)
    named = dict(zip(distinct, names, strict=True))
    seen: dict[str, int] = {}
    out = []
    for path in paths:
        seen[path] = seen.get(path, 0) + 1
        out.append(named[path] if seen[path] == 1 else f"{named[path]} ({seen[path]})")
    return out


def keep_text_plain(fig: Any) -> None:
    """Turn off mathtext for every text of ``fig`` but its tick labels.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> import io
    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> _ = ax.set_title("x$^$.txt")
    >>> keep_text_plain(fig)
    >>> fig.savefig(io.BytesIO(), format="png")  # the title drawn as written
    >>> ax.title.get_parse_math()
    False
    """
    from matplotlib.text import Text  # noqa: PLC0415 - the plot extra

    ticks: set[int] = set()
    for ax in fig.get_axes():
        for axis in (ax.xaxis, ax.yaxis, getattr(ax, "zaxis", None)):
            if axis is None:
                continue
            for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
                ticks.update((id(tick.label1), id(tick.label2)))
            ticks.add(id(axis.get_offset_text()))
    for text in fig.findobj(Text):
        if id(text) not in ticks:
            text.set_parse_math(False)


def cjk_fonts() -> list[str]:
    """Return the :data:`CJK_FAMILIES` Matplotlib's font list holds, in that order.

    Empty where none is installed (or Matplotlib's cached font list predates them).
    """
    from matplotlib import font_manager  # noqa: PLC0415 - the plot extra

    present = {entry.name for entry in font_manager.fontManager.ttflist}
    return [name for name in CJK_FAMILIES if name in present]


def fall_back_to_cjk(fig: Any) -> None:
    """Let every text of ``fig`` fall back to the installed CJK fonts, after its own.

    A text's own families come first, so Latin text is drawn as before; a tick label
    made later copies its axis' first one. Nothing changes where no CJK font is installed.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> title = fig.add_subplot().set_title("视觉里程计")
    >>> fall_back_to_cjk(fig)
    >>> title.get_fontfamily() == ["sans-serif", *cjk_fonts()]
    True
    """
    extra = cjk_fonts()
    if not extra:
        return
    from matplotlib.text import Text  # noqa: PLC0415 - the plot extra

    for ax in fig.get_axes():  # the ticks that exist, to be found below
        for axis in (ax.xaxis, ax.yaxis, getattr(ax, "zaxis", None)):
            if axis is not None:
                axis.get_major_ticks()
                axis.get_minor_ticks()
    for text in fig.findobj(Text):
        families = list(text.get_fontfamily())
        text.set_fontfamily([*families, *(f for f in extra if f not in families)])


@contextlib.contextmanager
def quiet_glyphs() -> Iterator[None]:
    """Drop Matplotlib's "Glyph ... missing from font(s)" warnings while drawing.

    A name in a script no installed font has is drawn as boxes, which the figure shows;
    the warning said so once per glyph, and an error under ``-W error`` stopped
    ``--plot`` and the report (a hunt).
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
        yield


def draw_quietly(fig: Any) -> None:
    """Lay out ``fig`` as saving it will (to measure it), its texts as they will be drawn.

    Its texts plain (:func:`keep_text_plain`), falling back to CJK fonts
    (:func:`fall_back_to_cjk`), no warning of a missing glyph (:func:`quiet_glyphs`).
    """
    keep_text_plain(fig)
    fall_back_to_cjk(fig)
    with quiet_glyphs():
        fig.draw_without_rendering()
