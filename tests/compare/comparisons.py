"""Comparisons for tests: summary signals built from statistics, named by their quantity."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robot_msgs.compare import Comparison, Signal

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.compare import ErrorStats


def summary_signal(name: str, stats: ErrorStats, unit: str = "m") -> Signal:
    """A signal without series, its quantity its name."""
    return Signal(name=name, quantity=name, unit=unit, stats=stats)


def comparison(
    metric: str = "ape",
    *,
    stats: Mapping[str, ErrorStats],
    units: Mapping[str, str] | None = None,
    **fields: Any,
) -> Comparison:
    """A comparison of summary signals, one per ``stats`` entry (unit ``m`` unless given)."""
    units = units or {}
    signals = tuple(summary_signal(n, s, units.get(n, "m")) for n, s in stats.items())
    return Comparison(metric=metric, signals=signals, **fields)
