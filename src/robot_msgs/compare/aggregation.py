"""``Aggregate``: many comparisons made with the same settings, and :func:`aggregate`."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.signal import Signal
from robot_msgs.compare.statistics import ErrorStats, error_stats, statistic_unit
from robot_msgs.errors import SettingsMismatchError, ValidationError
from robot_msgs.msg import Msg, Scalar, Value, message

if TYPE_CHECKING:
    from typing import Any

    from robot_msgs.compare.comparison import Comparison

__all__ = [
    "Aggregate",
    "AggregateTally",
    "SettingsTally",
    "aggregate",
    "check_counts",
    "check_same_settings",
    "setting_key",
]

_MIXED = "<mixed>"
#: Distinct ways of making a comparison a tally keeps (each a few hundred bytes).
_WAYS = 8


def check_counts(
    message: Msg, field: str, counts: Mapping[str, int], *, n_runs: int | None = None
) -> None:
    """Refuse counts by reason (``field`` of ``message``) below 0, or outnumbering ``n_runs``.

    Each count is wrong on its own, so it is named before the rule between them: ``n_runs``
    (when given) and every count at least 0, then the counts, runs that failed among
    those run, at most ``n_runs`` (named at ``n_runs``).

    Raises
    ------
    ValidationError
        A count below 0 (``- at `Aggregate.failures['crash']```), or more failures than runs.
    """
    if n_runs is not None and n_runs < 0:
        raise message._fail(field="n_runs", expected="a count >= 0", got=n_runs)  # noqa: SLF001
    for key, count in counts.items():
        if count < 0:
            at = f"{field}[{key!r}]"
            raise message._fail(field=at, expected="a count >= 0", got=count)  # noqa: SLF001
    n_failed = sum(counts.values())
    if n_runs is not None and n_failed > n_runs:
        expected = f"at least the {n_failed} failures"
        raise message._fail(field="n_runs", expected=expected, got=n_runs)  # noqa: SLF001


@message("compare/Aggregate")
class Aggregate(Msg):
    """A summary of many comparisons made with the same settings: runs, trials, sequences.

    Each signal's ``stats`` are the ``ErrorStats`` *across runs* of one per-run
    statistic: their ``median`` is the median run's RMSE, their ``max`` the worst run's
    (``stats`` views them by name). Failed runs are counted, never folded into the error
    statistics.

    WHY success apart from accuracy: the SLAM guide asks for "the overall success rate
    separately from the error on evaluable intervals".

    Attributes
    ----------
    metric : str
        The runs' metric (``"ape"``, ``"rpe"``...), as their comparisons name it; ``""``
        when no run succeeded.
    signals : tuple of Signal
        One per signal every successful run has, without series; its ``stats`` are of
        the runs' ``statistic`` (one value per run), and its ``unit`` is that statistic's
        (:func:`~robot_msgs.compare.statistics.statistic_unit`: ``m·s`` for the IAE of a
        signal in ``m``).
    n_runs : int
        Every run: those that succeeded and those counted in ``failures``.
    statistic : str
        The ``ErrorStats`` field of each run that is distributed across runs
        (``"rms"``: the runs' RMSEs).
    settings : mapping of str to value
        The shared parameters and evaluation settings, flat
        (:meth:`Comparison.record`); ``"<mixed>"`` where a forced mix differs.
    group : mapping of str to scalar
        What was pooled (``{"algorithm": "orb", "sequence": "MH_01"}``, with
        ``"configuration": "orb 2.0"`` when the runs held several versions or parameter
        sets of the algorithm); empty when not said.
    failures : mapping of str to int
        Failed runs by reason (``{"tracking lost": 2}``); empty when every run succeeded.
    notes : tuple of str
        What a reader must know, such as which settings a forced mix mixes.
    """

    metric: str
    signals: tuple[Signal, ...]
    n_runs: int
    statistic: str = "rms"
    settings: Mapping[str, Value] = field(default_factory=dict)
    group: Mapping[str, Scalar] = field(default_factory=dict)
    failures: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        if "stats" not in data:
            return data
        from robot_msgs.compare.migrate import aggregate_v0  # noqa: PLC0415 - old files only

        return aggregate_v0(data)

    def _validate(self) -> None:
        check_counts(self, "failures", self.failures, n_runs=self.n_runs)

    @property
    def stats(self) -> Mapping[str, ErrorStats]:
        """Each signal's statistics across runs, by name (a view of ``signals``)."""
        return {s.name: s.stats for s in self.signals}

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

    Two comparisons were made the same way when their metric, ``settings`` and
    ``parameters`` are equal: one hash lookup each. The first comparison of each distinct
    way is kept by name (at most eight ways, each a few hundred bytes, however many
    comparisons go through: a sweep of 10^6 runs); the ways are told apart setting by
    setting only when there are several.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison
    >>> tally = SettingsTally()
    >>> for relation in ("angle_deg", "angle_deg"):
    ...     tally.update(Comparison(metric="ape", signals=(), parameters={"relation": relation}))
    >>> tally.result()
    {'relation': 'angle_deg'}
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget every comparison."""
        self._ways: dict[tuple[object, ...], tuple[Comparison, str]] = {}

    def update(self, comparison: Comparison) -> None:
        """Take one comparison's metric, settings and parameters."""
        way = (comparison.metric, comparison.settings, comparison.parameters)
        if way not in self._ways and len(self._ways) < _WAYS:
            self._ways[way] = (comparison.summary(), comparison.estimate or "<unnamed>")

    def merge(self, other: SettingsTally) -> None:
        """Take every comparison ``other`` took, as if they came after this one's.

        The result is what one tally given both sequences in turn keeps (the first
        distinct ways, with where each was first seen), so tallies of consecutive slices
        merged in order judge as one tally of them all.
        """
        for way, seen in other._ways.items():
            if len(self._ways) >= _WAYS:
                break
            self._ways.setdefault(way, seen)

    def result(self, *, force: bool = False) -> dict[str, Value]:
        """Return the shared settings; see :func:`check_same_settings`.

        Raises
        ------
        SettingsMismatchError
            Naming every differing setting and the values seen, unless ``force``.
        """
        records = [({"metric": c.metric, **c.record()}, where) for c, where in self._ways.values()]
        if not records:
            return {}
        first = records[0][0]
        shared: dict[str, Value] = {}
        differing: list[str] = []
        for key in dict.fromkeys(k for record, _ in records for k in record):
            seen = dict.fromkeys(setting_key(record.get(key)) for record, _ in records)
            if len(seen) == 1:
                shared[key] = first.get(key)
                continue
            differing.append(key)
            shared[key] = _MIXED
        if differing and not force:
            # evo's zips record only what their title states: a setting they lack may be
            # the same, so the refusal says it cannot tell rather than "different".
            unknown = all(
                any(_said(repr(r.get(key)), key, records) == "not recorded" for r, _ in records)
                for key in differing
            )
            if unknown:
                opening = "Refusing to mix results whose settings cannot all be compared: "
                advice = "if they were made alike, rank them anyway with `force=True`"
            else:
                opening = "Refusing to mix results made with different settings of "
                advice = (
                    "evaluate them with the same settings, or rank them anyway with `force=True`"
                )
            msg = (
                f"{opening}{_differences(differing, records)}; {advice} (the ranking then says so)"
            )
            raise SettingsMismatchError(msg)
        shared.pop("metric", None)
        return shared


def _differences(keys: list[str], records: list[tuple[dict[str, Value], str]]) -> str:
    """Name every differing setting with its values and where each was first seen.

    Settings whose values split the results the same way are said together, their
    values side by side (``of `a=` and `b=` (`a=1`, `b=2` in x; `a=3`, `b=4` in y)``):
    an evaluation made otherwise usually differs in several settings at once, and evo's
    zips lack the same ones. At most three values of each are shown.
    """
    groups: dict[tuple[tuple[int, ...], tuple[bool, ...]], list[str]] = {}
    for key in keys:
        values = [setting_key(record.get(key)) for record, _ in records]
        seen = list(dict.fromkeys(values))
        unrecorded = tuple(_said(v, key, records) == "not recorded" for v in seen)
        groups.setdefault((tuple(seen.index(v) for v in values), unrecorded), []).append(key)
    said = []
    for (split, _), group in groups.items():
        kinds = []
        for kind in list(dict.fromkeys(split))[:3]:
            record, where = records[split.index(kind)]
            shown = [_said(repr(record.get(key)), key, records) for key in group]
            kinds.append(f"{', '.join(dict.fromkeys(shown))} in {where}")
        said.append(f"{_listed([f'`{key}=`' for key in group])} ({'; '.join(kinds)})")
    return _listed(said, joint="of ")


def _listed(words: list[str], *, joint: str = "") -> str:
    """Join ``words`` as ``a``, ``a and b``, ``a, b and c``; ``joint`` starts all but the first."""
    words = [words[0], *(joint + w for w in words[1:])]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def setting_key(value: object) -> str:
    """Return what tells a setting's values apart: equal values (as messages compare them) alike.

    ``repr``, with ``-0.0`` written as ``0.0`` (in a list too): the settings of two
    comparisons that are equal (``offset_s`` ``0.0`` and ``-0.0``) were named as
    differing. NaN is ``nan`` however it was made; ``1`` and ``1.0`` stay apart, as a
    settings value of each is apart.

    Examples
    --------
    >>> setting_key(-0.0) == setting_key(0.0), setting_key((-0.0, 1)), setting_key(1.0)
    (True, '(0.0, 1)', '1.0')
    """
    if isinstance(value, float) and value == 0.0:
        return repr(0.0)
    if isinstance(value, tuple):
        return repr(tuple(0.0 if isinstance(v, float) and v == 0.0 else v for v in value))
    return repr(value)


def _said(shown: str, key: str, records: list[tuple[dict[str, Value], str]]) -> str:
    """Name a value as the refusal shows it: `` `key=value` ``, or ``not recorded``.

    The call's spelling, which the command line shows as the flag's (``--sync
    one-to-one``). evo's result zips record only what their title states (relation,
    alignment, delta); a setting they lack is unknown there, not ``None``.
    """
    if shown == "None" and all(key not in r for r, _ in records if r.get(key) is None):
        return "not recorded"
    return f"`{key}={shown}`"


def check_same_settings(
    comparisons: Sequence[Comparison], *, force: bool = False
) -> dict[str, Value]:
    """Return the settings shared by all ``comparisons``; raise if any setting differs.

    The metric, the ``settings`` and the ``parameters`` are compared; what each
    evaluation estimated (``Comparison.estimated``: a clock offset) is not chosen and may
    differ.

    Parameters
    ----------
    comparisons : sequence of Comparison
        Results about to be aggregated or ranked together.
    force : bool
        Mix anyway: differing settings come back as ``"<mixed>"``.

    Raises
    ------
    SettingsMismatchError
        Naming every differing setting and the values seen, unless ``force``.

    Examples
    --------
    >>> from robot_msgs.compare import Comparison
    >>> def run(name, align):
    ...     parameters = {"align": align, "max_diff_s": 0.01}
    ...     return Comparison(metric="ape", signals=(), parameters=parameters, estimate=name)
    >>> check_same_settings([run("a", "se3"), run("b", "se3")])
    {'align': 'se3', 'max_diff_s': 0.01}
    >>> check_same_settings([run("a", "se3"), run("b", "sim3")])
    Traceback (most recent call last):
    ...
    robot_msgs.errors.SettingsMismatchError: Refusing to mix results made with different \
settings of `align=` (`align='se3'` in a; `align='sim3'` in b); evaluate them with the same \
settings, or rank them anyway with `force=True` (the ranking then says so)
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
    >>> from robot_msgs.compare import Comparison, Signal
    >>> runs = [
    ...     Comparison(metric="ape", signals=(Signal.of("t", "m", [e], stamps_s=[0.0]),))
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
    >>> from robot_msgs.compare import Comparison, Signal
    >>> tally = AggregateTally(group={"algorithm": "orb"})
    >>> for e in (0.1, 0.3):
    ...     signal = Signal.of("t", "m", [e], stamps_s=[0.0])
    ...     tally.update(Comparison(metric="ape", signals=(signal,)))
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
        self._first: tuple[Signal, ...] = ()
        self._metric = ""
        # Per signal, the statistic of each comparison that has it: a signal some
        # comparison lacks has fewer values than comparisons, and is left out.
        self._values: dict[str, array[float]] = {}
        self._n = 0
        self._failures: Counter[str] = Counter()
        self._settings = SettingsTally()

    def update(self, comparison: Comparison) -> None:
        """Take a successful run's comparison (its ``statistic`` of each signal)."""
        if not self._metric:
            self._metric = comparison.metric
            self._first = tuple(s.summary() for s in comparison.signals)
        for signal in comparison.signals:
            values = self._values.get(signal.name)
            if values is None:
                values = self._values[signal.name] = array("d")
            values.append(getattr(signal.stats, self.statistic))
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
        >>> from robot_msgs.compare import Comparison, Signal, error_stats
        >>> def run(error):
        ...     signal = Signal(name="t", quantity="t", unit="m", stats=error_stats([error]))
        ...     return Comparison(metric="ape", signals=(signal,))
        >>> a, b = AggregateTally(), AggregateTally()
        >>> a.update(run(0.1))
        >>> b.update(run(0.3))
        >>> b.fail("tracking lost")
        >>> a.merge(b)
        >>> agg = a.compute()
        >>> agg.n_runs, agg.signals[0].stats.mean
        (3, 0.2)
        """
        if other.statistic != self.statistic:
            msg = f"Expected a tally of the {self.statistic}, got one of the {other.statistic}"
            raise ValidationError(msg)
        if not self._metric:
            self._metric, self._first = other._metric, other._first
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
        # The unit is the statistic's: the IAE of metres is m·s (it was said "m": a walk).
        signals = tuple(
            s.replace(
                stats=error_stats(np.frombuffer(self._values[s.name], dtype=np.float64)),
                unit=statistic_unit(self.statistic, s.unit),
            )
            for s in self._first
            if len(self._values[s.name]) == self._n  # in every comparison
        )
        return Aggregate(
            metric=self._metric,
            signals=signals,
            n_runs=self._n + sum(self._failures.values()),
            statistic=self.statistic,
            settings=settings,
            group=self.group,
            failures=dict(self._failures),
            notes=tuple(notes),
        )
