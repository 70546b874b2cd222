"""Rank algorithms by accuracy across sequences, never mixing evaluation settings silently.

Algorithms are ranked as configured: runs of one algorithm with another version or
other parameters (:class:`~robot_msgs.compare.Configuration`) are ranked apart, each
line labelled by what differs (``orb 1.0``, ``orb 2.0``), so that comparing two versions
or sweeping a parameter never blends them into one line.

For each sequence, an algorithm's score is the median, over its *successful* runs, of
one statistic of its APE signal (``rms`` of ``translation`` by default), as a magnitude:
the mean or median of a signed error (``x``, ``along_track``) is ranked closest to zero
best (:func:`~robot_msgs.compare.statistics.rank_value`, ``res``'s rule too). Algorithms are
ranked per sequence (1 best; ties share the mean of their places; an algorithm that ran
but has no score, because every run failed, or because its successful runs have no such
figure (no reference, an IAE of overlapping pairs), shares the last places), and ordered
by their mean rank over the sequences they ran, then by success rate. With
``failures="worst"`` (``--rank-failures worst``) each failed run is an error of infinity
in its sequence's median instead: 37 successes of 40 no longer rank above 39 on errors
alone. The default keeps them apart, as the SLAM guide asks ("report the overall
success rate separately from the error on evaluable intervals"). Sequences where
no run has an APE (no reference) are left out of the ranking, runs on them included.
WHY ranks rather than mean errors: errors on different sequences differ by orders of
magnitude, and a mean would be decided by the hardest sequence alone.

Before anything is ranked, the settings of every comparison involved are compared with
:func:`~robot_msgs.compare.check_same_settings`: an SE(3)-aligned and a Sim(3)-aligned
APE are different quantities (the guide: "do not silently mix these evaluation settings
within one ranking").
"""

from __future__ import annotations

import math
from array import array
from collections import Counter, defaultdict
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.aggregation import SettingsTally
from robot_msgs.compare.configuration import (
    Configuration,
    configuration_labels,
    differing_parameters,
)
from robot_msgs.compare.ranking import Ranking, RankingRow
from robot_msgs.compare.statistics import (
    INTEGRAL_STATISTICS,
    SIGNED_STATISTICS,
    ErrorStats,
    rank_value,
    statistic_unit,
)
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.consistency import rank_target

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.compare.comparison import Comparison
    from robot_msgs.compare.run_report import RunReport

__all__ = ["MIXED", "RankingTally", "average_ranks", "rank_algorithms"]

#: What a forced ranking shows for a setting that differs between comparisons.
MIXED = "<mixed>"


def average_ranks(scores: Sequence[float]) -> list[float]:
    """Ranks of ``scores``, smallest first from 1; ties and NaNs share their mean place.

    NaN (no score) ranks after every number.

    Examples
    --------
    >>> average_ranks([0.2, 0.1, 0.2, float("nan")])
    [2.5, 1.0, 2.5, 4.0]
    >>> average_ranks([float("nan"), float("inf"), float("nan")])
    [2.5, 1.0, 2.5]
    """
    values = np.array(scores, dtype=np.float64)
    # Sorted by (no score, score): NaN keyed as inf tied with a score of inf (an ISE past
    # float64, an rms of inf saved before), where NaN ranks after every number (a review).
    missing = np.isnan(values)
    keyed = np.where(missing, 0.0, values)
    order = np.lexsort((keyed, missing))
    sorted_keys, sorted_missing = keyed[order], missing[order]
    ranks = np.empty(values.size)
    # Average rank of each run of equal keys: the mean of its 1-based positions.
    new_key = (sorted_keys[1:] != sorted_keys[:-1]) | (sorted_missing[1:] != sorted_missing[:-1])
    starts = np.flatnonzero(np.r_[True, new_key])
    ends = np.r_[starts[1:], values.size]
    mean_place = (starts + 1 + ends) / 2.0
    ranks[order] = np.repeat(mean_place, ends - starts)
    out: list[float] = ranks.tolist()
    return out


def rank_algorithms(
    reports: Sequence[RunReport],
    *,
    metric: str | None = None,
    signal: str | None = None,
    statistic: str = "rms",
    force: bool = False,
    failures: str = "apart",
) -> Ranking | None:
    """Rank the algorithms of ``reports`` by one metric across sequences.

    Parameters
    ----------
    reports : sequence of RunReport
        Runs of several algorithms on several sequences (``configuration``, that is
        ``algorithm``/``version``/``parameters``, and ``sequence`` group them).
    metric : str, optional
        The name of the comparison to rank by (``"ape:translation"``); default: each
        run's first, the run settings' first metric.
    signal : str, optional
        Which signal of it (default: its first, ``"translation"`` for APE).
    statistic : str
        Which ``ErrorStats`` field of each run (``"rms"``, ``"median"``, ``"max"``...).
    force : bool
        Rank comparisons made with different settings anyway; the ranking says so.
    failures : {"apart", "worst"}
        ``"apart"``: a sequence's score is the median over its successful runs;
        ``"worst"``: each failed run counts in it as an error of infinity, and the
        ranking's ``settings`` say ``rank_failures``.

    Returns
    -------
    Ranking or None
        ``None`` when no run has the comparison (no reference anywhere).

    Raises
    ------
    SettingsMismatchError
        Two comparisons differ in a setting (``alignment``, scale correction, delta,
        association tolerance...): the message names it. Not raised with ``force``.
    ValidationError
        An unknown ``statistic`` or ``failures``, or a comparison without ``signal``.

    Examples
    --------
    >>> from robot_msgs.msg.catalog import example
    >>> run = example("compare/RunReport")
    >>> ranking = rank_algorithms([run, run.replace(name="b", algorithm="dvo")])
    >>> [row.algorithm for row in ranking.rows], ranking.settings["align"]
    (['dvo', 'orb'], 'se3')
    """
    tally = RankingTally(metric=metric, signal=signal, statistic=statistic, failures=failures)
    for report in reports:
        tally.update(report)
    return tally.compute(force=force)


class _Group:
    """One configuration on one sequence: run counts, coverages, finite scores of successful runs.

    WHY each coverage and not their running sum: summed with ``math.fsum`` at the end, the
    mean is the same whatever order the runs came in, so tallies of slices of the runs
    merge to exactly the tally of all of them (:meth:`RankingTally.merge`).
    """

    __slots__ = ("coverages", "n_runs", "n_succeeded", "n_unreferenced", "n_unscored", "values")

    def __init__(self) -> None:
        self.n_runs = 0
        self.n_succeeded = 0
        self.n_unscored = 0  # successful runs whose statistic is no finite number
        self.n_unreferenced = 0  # successful runs with no reference, so no comparison
        self.coverages: array[float] = array("d")
        self.values: array[float] = array("d")

    def merge(self, other: _Group) -> None:
        self.n_runs += other.n_runs
        self.n_succeeded += other.n_succeeded
        self.n_unscored += other.n_unscored
        self.n_unreferenced += other.n_unreferenced
        self.coverages.extend(other.coverages)
        self.values.extend(other.values)


def _single_run_notes(groups: Mapping[tuple[Configuration, str], _Group]) -> list[str]:
    """Say of each algorithm split by parameters into configurations of one run per sequence.

    WHY: a seed written in ``parameters`` (``{"seed": 3}``, as a learning run logs it)
    made each trial its own configuration: 3 policies x 10 seeds were ranked as 30 lines of
    one run each, the trials never pooled, and nothing said why (a user walk).
    """
    by_algorithm: dict[str, list[Configuration]] = {}
    single: dict[str, bool] = {}
    for (configuration, _), group in groups.items():
        mine = by_algorithm.setdefault(configuration.algorithm, [])
        if configuration not in mine:
            mine.append(configuration)
        single[configuration.algorithm] = single.get(configuration.algorithm, True) and (
            group.n_runs == 1
        )
    notes = []
    for algorithm, mine in by_algorithm.items():
        names = differing_parameters(mine)
        if len(mine) > 1 and single[algorithm] and names:
            notes.append(
                f"{algorithm}: {len(mine)} configurations told apart by {', '.join(names)}, "
                "one run each per sequence: no trials are pooled (a parameter that only "
                "seeds a trial belongs in `trial`, not in `parameters`)"
            )
    return notes


class RankingTally:
    """:func:`rank_algorithms` one report at a time: a float per successful run, no report kept.

    ``update`` takes a run's report, ``leave_out`` counts a run that has none (it failed
    to evaluate, or was never evaluated for a reason outside it: it counts for no
    algorithm; the ranking's ``left_out`` says so), ``compute`` returns what
    :func:`rank_algorithms` gives for the same reports.

    Raises
    ------
    ValidationError
        An unknown ``statistic``; in ``update``, a comparison without the signal.

    Examples
    --------
    >>> from robot_msgs.msg.catalog import example
    >>> run = example("compare/RunReport")
    >>> tally = RankingTally()
    >>> tally.update(run)
    >>> tally.update(run.replace(name="b", algorithm="dvo"))
    >>> tally.leave_out("SchedulerLost")
    >>> ranking = tally.compute()
    >>> [row.algorithm for row in ranking.rows], dict(ranking.left_out)
    (['dvo', 'orb'], {'SchedulerLost': 1})
    """

    def __init__(
        self,
        *,
        metric: str | None = None,
        signal: str | None = None,
        statistic: str = "rms",
        failures: str = "apart",
    ) -> None:
        if failures not in ("apart", "worst"):
            msg = f"Expected failures 'apart' or 'worst', got {failures!r}"
            raise ValidationError(msg)
        if statistic not in ErrorStats.__dataclass_fields__:
            msg = f"Expected an ErrorStats field as statistic, got {statistic!r}"
            raise ValidationError(msg)
        if statistic == "n":  # fewest matched poses ranked best (a review)
            msg = (
                "Expected an error statistic to rank by (rms, median, p95_abs...), got 'n', a count"
            )
            raise ValidationError(msg)
        self.metric = metric
        self.signal = signal
        self.statistic = statistic
        self.failures = failures
        self.reset()

    def reset(self) -> None:
        """Forget every run."""
        self._first: Comparison | None = None
        self._signal = self.signal
        self._groups: defaultdict[tuple[Configuration, str], _Group] = defaultdict(_Group)
        self._evaluable: set[str] = set()
        self._settings = SettingsTally()
        self._left_out: Counter[str] = Counter()
        self._signed = False  # some run's errors below zero: the scores are magnitudes
        self._target = 0.0  # what a consistent estimate scores (a NEES's mean: its dof)

    def update(self, report: RunReport) -> None:
        """Take one run's report."""
        c = report.accuracy if self.metric is None else report.comparisons.get(self.metric)
        key = (report.configuration, report.sequence)
        group = self._groups[key]
        group.n_runs += 1
        group.n_succeeded += report.success
        if math.isfinite(report.coverage):
            group.coverages.append(report.coverage)
        if not report.success and self.failures == "worst":
            group.values.append(math.inf)  # scored on a sequence some run evaluated
        if c is None:
            group.n_unreferenced += report.success and not report.has_reference
            return
        signal = self._signal if self._signal is not None else next(iter(c.stats))
        found = next((s for s in c.signals if s.name == signal), None)
        if found is None:
            from robot_msgs.compare.migrate import renamed_signal  # noqa: PLC0415 - errors only

            got = list(c.stats)
            renamed = renamed_signal(c.metric, signal)
            # WHY: a name of an older release, typed, was one of every name listed
            now = (
                f" (rpg's yaw per segment: {renamed!r} since it was found to be about world "
                "z, not the reference body's z)"
                if renamed in got
                else ""
            )
            msg = (
                f"Expected signal {signal!r} in the {c.metric} of run {report.name!r}{now}, "
                f"got {got}"
            )
            raise ValidationError(msg)
        if self._first is None:
            self._target = rank_target(found.quantity, self.statistic)
            self._first = c
        self._signal = signal
        self._evaluable.add(report.sequence)
        self._settings.update(c)
        stats = found.stats
        self._signed |= bool(stats.min < 0)
        value = rank_value(stats, self.statistic, target=self._target)
        if report.success and math.isfinite(value):
            group.values.append(value)
        elif report.success:
            group.n_unscored += 1

    def leave_out(self, reason: str) -> None:
        """Count a run with no report (``reason``: why it failed to evaluate, or was not)."""
        self._left_out[reason] += 1

    def merge(self, other: RankingTally) -> None:
        """Take every report ``other`` took, as if they came after this one's.

        Tallies of consecutive slices of the reports, merged in order, compute what one
        tally of all of them computes, when both rank by the same signal (given, or the
        first of their comparisons: the same for every comparison of a metric).

        Raises
        ------
        ValidationError
            ``other`` ranks by another metric, statistic or signal.

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> run = example("compare/RunReport")
        >>> a, b = RankingTally(), RankingTally()
        >>> a.update(run)
        >>> b.update(run.replace(name="b", algorithm="dvo"))
        >>> a.merge(b)
        >>> [row.algorithm for row in a.compute().rows]
        ['dvo', 'orb']
        """
        ours = (self.metric, self.statistic, self.failures, self._signal)
        theirs = (other.metric, other.statistic, other.failures, other._signal)
        if ours[:3] != theirs[:3] or (None not in (ours[3], theirs[3]) and ours[3] != theirs[3]):
            said = ("metric", "statistic", "failures", "signal")
            mine = ", ".join(f"{k} {v!r}" for k, v in zip(said, ours, strict=True))
            yours = ", ".join(f"{k} {v!r}" for k, v in zip(said, theirs, strict=True))
            msg = f"Expected a tally ranking by {mine}, got one ranking by {yours}"
            raise ValidationError(msg)
        if self._first is None:
            self._first, self._signal, self._target = other._first, other._signal, other._target
        for key, group in other._groups.items():
            self._groups[key].merge(group)
        self._evaluable |= other._evaluable
        self._settings.merge(other._settings)
        self._left_out.update(other._left_out)
        self._signed |= other._signed

    def compute(self, *, force: bool = False) -> Ranking | None:
        """Return the ranking of everything taken so far; ``None`` when no run has the comparison.

        Raises
        ------
        SettingsMismatchError
            Two comparisons differ in a setting, unless ``force``.
        """
        first, signal = self._first, self._signal
        if first is None or signal is None:
            return None
        settings = self._settings.result(force=force)
        if self.failures == "worst":  # how it scored, with what it scored
            settings = {**settings, "rank_failures": "worst"}
        mixed = sorted(k for k, v in settings.items() if v == MIXED)
        # Named here, from every configuration among the runs: a tally of some of them
        # cannot know whether an algorithm has several (merged tallies name alike).
        labels = configuration_labels(c for c, _ in self._groups)
        groups = {k: g for k, g in self._groups.items() if k[1] in self._evaluable}
        configurations = list(dict.fromkeys(c for c, _ in groups))
        sequences = list(dict.fromkeys(s for _, s in groups))
        scores: dict[Configuration, dict[str, float]] = {c: {} for c in configurations}
        no_score: set[tuple[Configuration, str]] = set()
        for (configuration, sequence), group in groups.items():
            values = np.frombuffer(group.values, dtype=np.float64)
            # Successful runs, none scored: no score, the failures counted worst or not (the
            # median of the failures alone was inf, ranked ahead of no score: a review).
            if group.n_succeeded and not np.isfinite(values).any():
                no_score.add((configuration, sequence))
            scored = values.size > 0 and (configuration, sequence) not in no_score
            scores[configuration][sequence] = float(np.median(values)) if scored else math.nan
        ranks: dict[Configuration, dict[str, float]] = {c: {} for c in configurations}
        for sequence in sequences:
            present = [c for c in configurations if sequence in scores[c]]
            for configuration, rank in zip(
                present, average_ranks([scores[c][sequence] for c in present]), strict=True
            ):
                # Successful runs there, none scored: no score, not the NaN of failed runs
                # (the table said "none succeeded" of an RPE's IAE, and of runs with no
                # reference where others had one: walks), nor of runs whose report lacks
                # the ranked comparison: any successful run and no value is no score.
                if (configuration, sequence) in no_score:
                    del scores[configuration][sequence]
                ranks[configuration][sequence] = rank
        rows = []
        for configuration in configurations:
            mine = [g for (c, _), g in groups.items() if c == configuration]
            coverages = [c for g in mine for c in g.coverages]
            rows.append(
                RankingRow(
                    algorithm=configuration.algorithm,
                    version=configuration.version,
                    parameters=dict(configuration.parameters),
                    label=labels[configuration],
                    position=1,
                    mean_rank=float(np.mean(list(ranks[configuration].values()))),
                    n_runs=sum(g.n_runs for g in mine),
                    n_succeeded=sum(g.n_succeeded for g in mine),
                    mean_coverage=math.fsum(coverages) / len(coverages) if coverages else math.nan,
                    scores=scores[configuration],
                    ranks=ranks[configuration],
                )
            )
        rows.sort(key=lambda row: (row.mean_rank, -row.success_rate, row.name))
        notes: tuple[str, ...] = ()
        # Positions of a tie were told apart by name alone, unsaid (a review); the table
        # said it again in other words (a review): said here once, with the order's rule.
        tied: dict[float, list[str]] = {}
        for row in rows:
            tied.setdefault(row.mean_rank, []).append(row.name)
        for mean_rank, names in tied.items():
            if len(names) > 1:
                said = (
                    f"tie: {', '.join(names)} have the same mean rank ({mean_rank:.2f}); "
                    "listed by success rate, then name"
                )
                notes = (*notes, said)
        if mixed:  # first, and beside the ties (it replaced them: a review)
            forced = (
                f"FORCED: comparisons with different {', '.join(mixed)} settings are "
                "ranked together"
            )
            notes = (forced, *notes)
        covered = {row.name: len(row.ranks) for row in rows}
        if len(set(covered.values())) > 1:
            shown = ", ".join(f"{a} {n}" for a, n in covered.items())
            differ = (
                f"The algorithms ran on different sequences (of {len(sequences)}: {shown}): "
                "a mean rank over fewer sequences is not comparable with one over more."
            )
            notes = (*notes, differ)
        notes = (*notes, *_single_run_notes(groups))
        n = sum(g.n_unreferenced for g in groups.values())
        if n:  # "n/a (k)" too, and why
            unreferenced = (
                f"{n} successful {'run has' if n == 1 else 'runs have'} no reference, so no "
                f"{first.metric}: {'it is' if n == 1 else 'they are'} not scored"
            )
            notes = (*notes, unreferenced)
        n = sum(g.n_unscored for g in groups.values())
        if n:  # their cells read "n/a (k)": the table's legend says what, this says why
            # Not "overlapping pairs have none" alone: one sample has no interval either.
            why = (
                " (an integral needs 2 or more samples on a time axis; overlapping pairs have "
                "no time axis)"
            )
            unscored = (
                f"{n} successful {'run has' if n == 1 else 'runs have'} no finite "
                f"{self.statistic} of {signal}"
                f"{why if self.statistic in INTEGRAL_STATISTICS else ''}: "
                f"{'it is' if n == 1 else 'they are'} not scored"
            )
            notes = (*notes, unscored)
        return Ranking(
            metric=first.metric,
            signal=signal,
            statistic=self.statistic,
            # IAE of metres is m·s (a review: --statistic iae was headed "[m]").
            unit=statistic_unit(self.statistic, first.units.get(signal, "")),
            sequences=tuple(sequences),
            rows=tuple(row.replace(position=i) for i, row in enumerate(rows, start=1)),
            settings=settings,
            forced=bool(mixed),
            notes=notes,
            left_out=dict(self._left_out),
            magnitude=self._signed and self.statistic in SIGNED_STATISTICS and not self._target,
            target=self._target,
        )
