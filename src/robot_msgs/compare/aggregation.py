"""``Aggregate``: many comparisons made with the same settings, and :func:`aggregate`."""

from __future__ import annotations

from array import array
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

__all__ = ["Aggregate", "AggregateTally", "SettingsTally", "aggregate", "check_same_settings"]

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


class SettingsTally:
    """The settings of comparisons seen one at a time, as :func:`check_same_settings` judges them.

    Keeps, per setting, at most three distinct values and where each was first seen: a
    few hundred bytes however many comparisons go through (a sweep of 10^6 runs).

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, error_stats
    >>> tally = SettingsTally()
    >>> for align in ("se3", "se3"):
    ...     tally.update(Comparison(metric="ape", stats={"t": error_stats([0.1])},
    ...                             units={"t": "m"}, settings={"align": align}))
    >>> tally.result()
    {'align': 'se3'}
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget every comparison."""
        self._first: Comparison | None = None
        self._seen: dict[str, dict[str, str]] = {}

    def update(self, comparison: Comparison) -> None:
        """Take one comparison's metric and settings."""
        if self._first is None:
            self._first = comparison
            self._seen["metric"] = {}
        label = comparison.estimate or "<unnamed>"
        first = self._first.estimate or "<unnamed>"
        for key in comparison.settings:
            if key in ESTIMATED_SETTINGS:  # estimated per evaluation, not a setting chosen
                continue
            if key not in self._seen:  # absent from every comparison so far: None there
                self._seen[key] = {} if comparison is self._first else {repr(None): first}
        for key, values in self._seen.items():
            if len(values) < 3:
                value = comparison.metric if key == "metric" else comparison.settings.get(key)
                values.setdefault(repr(value), label)

    def merge(self, other: SettingsTally) -> None:
        """Take every comparison ``other`` took, as if they came after this one's.

        The result is what one tally given both sequences in turn keeps (the first three
        distinct values of each setting, with where each was first seen), so tallies of
        consecutive slices merged in order judge as one tally of them all.
        """
        if other._first is None:
            return
        if self._first is None:
            self._first = other._first
            self._seen = {key: dict(values) for key, values in other._seen.items()}
            return
        first = self._first.estimate or "<unnamed>"
        for key, values in other._seen.items():
            mine = self._seen.setdefault(key, {repr(None): first})  # absent from ours: None
            for value, where in values.items():
                if len(mine) >= 3:
                    break
                mine.setdefault(value, where)
        theirs = other._first.estimate or "<unnamed>"
        for key, mine in self._seen.items():
            if key not in other._seen and len(mine) < 3:  # absent from theirs: None there
                mine.setdefault(repr(None), theirs)

    def result(self, *, force: bool = False) -> dict[str, Value]:
        """Return the shared settings; see :func:`check_same_settings`.

        Raises
        ------
        SettingsMismatchError
            Naming the first differing setting and the values seen, unless ``force``.
        """
        first = self._first
        if first is None:
            return {}
        shared: dict[str, Value] = {}
        for key, values in self._seen.items():
            if len(values) == 1:
                shared[key] = first.metric if key == "metric" else first.settings.get(key)
                continue
            if not force:
                examples = "; ".join(f"{value} in {where}" for value, where in values.items())
                msg = (
                    f"Refusing to mix results made with different `{key}` settings "
                    f"({examples}); evaluate them with the same settings, or force the mix "
                    "and say so"
                )
                raise SettingsMismatchError(msg)
            shared[key] = _MIXED
        shared.pop("metric", None)
        return shared


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
    tally = SettingsTally()
    for comparison in comparisons:
        tally.update(comparison)
    return tally.result(force=force)


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
    tally = AggregateTally(statistic=statistic, group=group)
    for comparison in comparisons:
        tally.update(comparison)
    for reason in failures:
        tally.fail(reason)
    return tally.compute(force=force)


class AggregateTally:
    """:func:`aggregate` one comparison at a time: a float per signal and run, no comparison kept.

    ``update`` takes a successful run's comparison, ``fail`` a failed run's reason,
    ``compute`` returns the :class:`Aggregate` that :func:`aggregate` would give for the
    same comparisons and failures in the same order.

    Raises
    ------
    ValidationError
        An unknown ``statistic``.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison, error_stats
    >>> tally = AggregateTally(group={"algorithm": "orb"})
    >>> for e in (0.1, 0.3):
    ...     tally.update(Comparison(metric="ape", stats={"t": error_stats([e])}, units={"t": "m"}))
    >>> tally.fail("tracking lost")
    >>> agg = tally.compute()
    >>> agg.n_runs, agg.success_rate, agg.stats["t"].mean, dict(agg.failures)
    (3, 0.6666666666666666, 0.2, {'tracking lost': 1})
    """

    def __init__(
        self, *, statistic: str = "rms", group: Mapping[str, Scalar] | None = None
    ) -> None:
        if statistic not in ErrorStats.__dataclass_fields__:
            msg = f"Expected an ErrorStats field as statistic, got {statistic!r}"
            raise ValidationError(msg)
        self.statistic = statistic
        self.group = dict(group or {})
        self.reset()

    def reset(self) -> None:
        """Forget every run."""
        self._first: Comparison | None = None
        # Per signal, the statistic of each comparison that has it: a signal some
        # comparison lacks has fewer values than comparisons, and is left out.
        self._values: dict[str, array[float]] = {}
        self._n = 0
        self._failures: Counter[str] = Counter()
        self._settings = SettingsTally()

    def update(self, comparison: Comparison) -> None:
        """Take a successful run's comparison (its ``statistic`` of each signal)."""
        if self._first is None:
            self._first = comparison
        for signal, stats in comparison.stats.items():
            values = self._values.get(signal)
            if values is None:
                values = self._values[signal] = array("d")
            values.append(getattr(stats, self.statistic))
        self._settings.update(comparison)
        self._n += 1

    def fail(self, reason: str) -> None:
        """Count a failed run by its reason."""
        self._failures[reason] += 1

    def merge(self, other: AggregateTally) -> None:
        """Take every run ``other`` took, as if they came after this one's.

        Tallies of consecutive slices of the runs, merged in order, compute what one
        tally of all of them computes (the same values in the same order).

        Raises
        ------
        ValidationError
            ``other`` tallies another statistic.

        Examples
        --------
        >>> from robot_msgs.compare import Comparison, error_stats
        >>> a, b = AggregateTally(), AggregateTally()
        >>> a.update(Comparison(metric="ape", stats={"t": error_stats([0.1])}, units={"t": "m"}))
        >>> b.update(Comparison(metric="ape", stats={"t": error_stats([0.3])}, units={"t": "m"}))
        >>> b.fail("tracking lost")
        >>> a.merge(b)
        >>> agg = a.compute()
        >>> agg.n_runs, agg.stats["t"].mean
        (3, 0.2)
        """
        if other.statistic != self.statistic:
            msg = f"Expected a tally of the {self.statistic}, got one of the {other.statistic}"
            raise ValidationError(msg)
        if self._first is None:
            self._first = other._first
        for signal, values in other._values.items():
            self._values.setdefault(signal, array("d")).extend(values)
        self._n += other._n
        self._failures.update(other._failures)
        self._settings.merge(other._settings)

    def compute(self, *, force: bool = False) -> Aggregate:
        """Return the aggregate of everything taken so far.

        Raises
        ------
        SettingsMismatchError
            When settings differ and ``force`` is false.
        """
        settings = self._settings.result(force=force)
        notes: list[str] = []
        mixed = sorted(k for k, v in settings.items() if v == _MIXED)
        if mixed:
            notes.append(f"forced: runs with different {', '.join(mixed)} settings are mixed")
        first = self._first
        every = [] if first is None else list(first.stats)
        signals = [s for s in every if len(self._values[s]) == self._n]  # in every comparison
        stats = {s: error_stats(np.frombuffer(self._values[s], dtype=np.float64)) for s in signals}
        return Aggregate(
            metric=first.metric if first is not None else "",
            stats=stats,
            units={s: first.units[s] for s in signals} if first is not None else {},
            n_runs=self._n + sum(self._failures.values()),
            statistic=self.statistic,
            settings=settings,
            group=self.group,
            failures=dict(self._failures),
            notes=tuple(notes),
        )
