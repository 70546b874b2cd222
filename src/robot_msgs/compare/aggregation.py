"""``Aggregate``: many comparisons made with the same settings, and :func:`aggregate`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.comparison import ESTIMATED_SETTINGS
from robot_msgs.compare.statistics import ErrorStats, error_stats
from robot_msgs.errors import SettingsMismatchError, ValidationError
from robot_msgs.msg import Msg, Scalar, Value, message

if TYPE_CHECKING:
    from robot_msgs.compare.comparison import Comparison

__all__ = ["Aggregate", "aggregate", "check_same_settings"]

_MIXED = "<mixed>"


@message("compare/Aggregate")
class Aggregate(Msg):
    """A summary of many comparisons made with the same settings: runs, trials, sequences.

    For each signal, ``stats`` is the ``ErrorStats`` *across runs* of one per-run
    statistic (``statistic``, ``"rms"`` by default): its ``median`` is the median run's
    RMSE, its ``max`` the worst run's. WHY success apart from accuracy: the SLAM guide asks
    for "the overall success rate separately from the error on evaluable intervals", so
    failed runs are counted in ``n_runs`` and ``failures`` (reason to count), never folded
    into the error statistics. ``group`` says what was pooled (``{"algorithm": "orb",
    "sequence": "MH_01"}``); ``settings`` are the shared evaluation settings.
    """

    metric: str
    stats: Mapping[str, ErrorStats]
    units: Mapping[str, str]
    n_runs: int
    statistic: str = "rms"
    settings: Mapping[str, Value] = field(default_factory=dict)
    group: Mapping[str, Scalar] = field(default_factory=dict)
    failures: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def _validate(self) -> None:
        if list(self.units) != list(self.stats):
            expected = f"one unit per signal, in order {list(self.stats)}"
            raise self._fail(field="units", expected=expected, got=dict(self.units))
        if self.n_failed > self.n_runs:
            raise self._fail(
                field="n_runs", expected=f"at least the {self.n_failed} failures", got=self.n_runs
            )

    @property
    def n_failed(self) -> int:
        """Runs that ended without a usable result."""
        return sum(self.failures.values())

    @property
    def n_succeeded(self) -> int:
        """Runs that produced a comparison."""
        return self.n_runs - self.n_failed

    @property
    def success_rate(self) -> float:
        """Share of runs that succeeded, in ``[0, 1]``; NaN with no runs."""
        return self.n_succeeded / self.n_runs if self.n_runs else float("nan")


def check_same_settings(
    comparisons: Sequence[Comparison], *, force: bool = False
) -> dict[str, Value]:
    """Return the settings shared by all ``comparisons``; raise if any setting differs.

    The keys of :data:`~robot_msgs.compare.comparison.ESTIMATED_SETTINGS` (a clock offset
    estimated per evaluation) are not settings chosen, so they may differ and are left out.

    Parameters
    ----------
    comparisons : sequence of Comparison
        Results about to be aggregated or ranked together.
    force : bool
        Mix anyway: differing settings come back as ``"<mixed>"``.

    Raises
    ------
    SettingsMismatchError
        Naming the first differing setting and the values seen, unless ``force``.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, error_stats
    >>> def run(name, align):
    ...     stats, units = {"t": error_stats([0.1])}, {"t": "m"}
    ...     settings = {"align": align, "max_diff_s": 0.01}
    ...     return Comparison(metric="ape", stats=stats, units=units, settings=settings,
    ...                       estimate=name)
    >>> check_same_settings([run("a", "se3"), run("b", "se3")])
    {'align': 'se3', 'max_diff_s': 0.01}
    >>> check_same_settings([run("a", "se3"), run("b", "sim3")])
    Traceback (most recent call last):
    ...
    robot_msgs.errors.SettingsMismatchError: Refusing to mix results made with different \
`align` settings ('se3' in a; 'sim3' in b); evaluate them with the same settings, or force \
the mix and say so
    >>> check_same_settings([run("a", "se3"), run("b", "sim3")], force=True)["align"]
    '<mixed>'
    """
    if not comparisons:
        return {}
    keys = [
        k
        for k in dict.fromkeys(k for c in comparisons for k in c.settings)
        if k not in ESTIMATED_SETTINGS
    ]
    keys = ["metric", *keys]
    shared: dict[str, Value] = {}
    for key in keys:
        seen: dict[str, Comparison] = {}
        for c in comparisons:
            value = c.metric if key == "metric" else c.settings.get(key)
            seen.setdefault(repr(value), c)
        if len(seen) == 1:
            first = comparisons[0]
            shared[key] = first.metric if key == "metric" else first.settings.get(key)
            continue
        if not force:
            examples = "; ".join(
                f"{value} in {c.estimate or '<unnamed>'}" for value, c in list(seen.items())[:3]
            )
            msg = (
                f"Refusing to mix results made with different `{key}` settings ({examples}); "
                "evaluate them with the same settings, or force the mix and say so"
            )
            raise SettingsMismatchError(msg)
        shared[key] = _MIXED
    shared.pop("metric", None)
    return shared


def aggregate(
    comparisons: Iterable[Comparison],
    *,
    failures: Iterable[str] = (),
    statistic: str = "rms",
    group: Mapping[str, Scalar] | None = None,
    force: bool = False,
) -> Aggregate:
    """Summarise comparisons of one metric made with the same settings.

    Parameters
    ----------
    comparisons : iterable of Comparison
        The successful runs.
    failures : iterable of str
        One reason per failed run (``"tracking lost"``, ``"crashed"``); they count in
        ``n_runs`` and lower the success rate.
    statistic : str
        Which ``ErrorStats`` field of each run is distributed across runs.
    group : mapping, optional
        What was pooled, e.g. ``{"algorithm": "orb", "sequence": "MH_01"}``.
    force : bool
        Mix differing settings; the result's ``notes`` say so.

    Raises
    ------
    SettingsMismatchError
        When settings differ and ``force`` is false.
    ValidationError
        For an unknown ``statistic`` or comparisons without a common signal.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, error_stats
    >>> runs = [
    ...     Comparison(metric="ape", stats={"t": error_stats([e])}, units={"t": "m"})
    ...     for e in (0.1, 0.3)
    ... ]
    >>> agg = aggregate(runs, failures=["tracking lost"])
    >>> agg.n_runs, agg.success_rate, agg.stats["t"].mean
    (3, 0.6666666666666666, 0.2)
    """
    runs = list(comparisons)
    reasons = list(failures)
    if statistic not in ErrorStats.__dataclass_fields__:
        msg = f"Expected an ErrorStats field as statistic, got {statistic!r}"
        raise ValidationError(msg)
    settings = check_same_settings(runs, force=force)
    notes: list[str] = []
    mixed = sorted(k for k, v in settings.items() if v == _MIXED)
    if mixed:
        notes.append(f"forced: runs with different {', '.join(mixed)} settings are mixed")
    signals = [s for s in (runs[0].stats if runs else {}) if all(s in r.stats for r in runs)]
    stats = {
        s: error_stats(np.array([getattr(r.stats[s], statistic) for r in runs])) for s in signals
    }
    metric = runs[0].metric if runs else ""
    return Aggregate(
        metric=metric,
        stats=stats,
        units={s: runs[0].units[s] for s in signals},
        n_runs=len(runs) + len(reasons),
        statistic=statistic,
        settings=settings,
        group=dict(group or {}),
        failures=dict(Counter(reasons)),
        notes=tuple(notes),
    )
