"""Text in figures drawn as written: names are never parsed as mathtext.

Matplotlib reads a string holding two ``$`` as mathtext (its TeX subset): a run or file
named ``x$^$.txt`` stopped ``--plot`` with the mathtext parser's traceback, and a name
such as ``a$_1$b`` would be typeset, not shown. Every title, axis label, legend entry and
annotation of a figure is set to plain text before it is drawn
(:func:`keep_text_plain`); tick labels keep mathtext, which Matplotlib's own formatters
write for exponents.
"""

from __future__ import annotations

from typing import Any

__all__ = ["keep_text_plain"]


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
