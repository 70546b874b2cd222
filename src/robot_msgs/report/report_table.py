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


def _num(value: float, digits: int = 3, scale: float = 1.0) -> str:
    """``value * scale`` with ``digits`` decimals, or ``-`` when NaN."""
    return MISSING if not math.isfinite(value) else f"{value * scale:.{digits}f}"


def _pct(value: float) -> str:
    """Return a share in whole percent; one decimal where rounding would say all or none.

    A coverage of 0.9975 printed "100%", hiding the shortfall (a review).

    Examples
    --------
    >>> [_pct(v) for v in (0.5, 0.9975, 1.0, 0.002, 0.0)]
    ['50%', '99.8%', '100%', '0.2%', '0%']
    """
    if not math.isfinite(value):
        return MISSING
    shown = f"{100 * value:.0f}"
    if (shown == "100" and value < 1.0) or (shown == "0" and value > 0.0):
        shown = f"{100 * value:.1f}"
    return f"{shown}%"
