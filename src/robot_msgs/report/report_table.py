"""The table every report table is: titled rows of formatted cells, and their formats.

A :class:`ReportTable` holds cells already written as text, so every writer
(:mod:`robot_msgs.report.table_renderers`) shows the same numbers; the tables build them
with the cell formats here. Missing values print as :data:`MISSING`, ``-``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["MISSING", "ReportTable"]

MISSING = "-"


@dataclass(frozen=True, slots=True)
class ReportTable:
    """A titled table of already formatted cells; ``numeric[i]`` right-aligns column i."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]
    notes: tuple[str, ...] = ()


def _num(value: float, digits: int = 3, scale: float = 1.0, *, noise: float = 1e-9) -> str:
    """``value * scale`` with ``digits`` decimals, or ``-`` when NaN.

    A value that ``digits`` decimals round to zero keeps its first significant digit,
    as :func:`_pct` keeps a share from reading all or none: a latency of 0.4 ms printed
    "0" ms, an APE of 3e-05 m "0.0000" m (a hunt). Below ``noise`` (shown units; 1e-9,
    rounding noise of a perfect estimate, 3e-16 m) it stays zero, and without a sign: a
    mean error of -3e-13 m, or -0.0, printed "-0.0000", a sign that noise does not have
    (a review). A figure made of differences of Unix-epoch stamps (float64 2.4e-7 s
    apart) passes a larger ``noise``.

    Examples
    --------
    >>> [_num(v, 0, 1e3) for v in (0.0304, 0.0004, 0.0)], _num(3e-5, 4), _num(-3e-13, 4)
    (['30', '0.4', '0'], '0.00003', '0.0000')
    >>> _num(9.96e-6, 4), _num(-9.6e-6, 4)
    ('0.00001', '-0.00001')
    """
    if not math.isfinite(value):
        return MISSING
    scaled = value * scale
    shown = f"{scaled:.{digits}f}"
    if float(shown) == 0.0:
        if abs(scaled) < noise:  # noise, or -0.0: a zero without a sign ("-0.0000" said one)
            return f"{0.0:.{digits}f}"
        # The decimals of the value rounded to one significant digit: 9.96e-06 rounds to
        # 1e-05, five decimals; the exponent before rounding (-6) printed "0.000010".
        exponent = int(f"{scaled:.0e}".partition("e")[2])
        shown = f"{scaled:.{-exponent}f}"
    return shown


_PCT_PLACES = 17  # a float's share in percent is told from any other in these decimals


def _pct(value: float, bound: float | None = None) -> str:
    """Return a share in whole percent; one decimal where rounding would mislead.

    Rounding misleads where it says all or none, or puts the share on the other side
    of ``bound`` (the share it is judged by, ``min_coverage``). Where one decimal still
    does, it is rounded toward the side the share is on, so the figure is no wider than
    ``99.8%``; only a bound that one decimal cannot tell from all or none (0.9995, 0.001)
    takes more, as many as tell: rounded toward it, 0.0009 under 0.001 read "0.0%", none.
    A coverage of 0.9975 printed "100%", hiding the shortfall (a review); one of 0.4995
    printed "50%" beside "coverage too low", under 50% (a hunt).

    Examples
    --------
    >>> [_pct(v) for v in (0.5, 0.9975, 1.0, 0.002, 0.0, 0.9999)]
    ['50%', '99.8%', '100%', '0.2%', '0%', '99.9%']
    >>> _pct(0.4995, 0.5), _pct(0.5004, 0.5), _pct(0.0009, 0.001), _pct(0.9996, 0.9995)
    ('49.9%', '50%', '0.09%', '99.96%')
    """
    if not math.isfinite(value):
        return MISSING
    judged = (value > 0.0, value < 1.0, bound is not None and value < bound)
    # The bound as a reader sees it, not its binary rounding (0.505 * 100 = 50.49...)
    cut = math.inf if bound is None else round(100 * bound, 9)

    def misleads(shown: str) -> bool:
        figure = float(shown)
        return (figure > 0.0, figure < 100.0, bound is not None and figure < cut) != judged

    shown = f"{100 * value:.0f}"
    places = 1
    while misleads(shown) and places < _PCT_PLACES:
        shown = f"{100 * value:.{places}f}"
        if misleads(shown):  # 49.995% read "50.0": rounded toward the share's side instead
            toward = math.floor if float(shown) > 100 * value else math.ceil
            scale = 10**places
            shown = f"{toward(100 * scale * value) / scale:.{places}f}"
        places += 1
    return f"{shown}%"
