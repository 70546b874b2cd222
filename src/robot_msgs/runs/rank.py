"""Rank algorithms by accuracy across sequences, never mixing evaluation settings silently.

For each sequence, an algorithm's score is the median, over its *successful* runs, of
one statistic of its APE signal (``rms`` of ``translation`` by default). Algorithms are
ranked per sequence (1 best; ties share the mean of their places; an algorithm that ran
but has no score, because every run failed or none had a reference, shares the last
places), and ordered by their mean rank over the sequences they ran, then by success
rate. Sequences where no run has an APE (no reference) are left out of the ranking, runs
on them included. WHY ranks rather than mean errors: errors on different sequences differ by orders
of magnitude, and a mean would be decided by the hardest sequence alone.

Before anything is ranked, the settings of every comparison involved are compared with
:func:`~robot_msgs.compare.check_same_settings`: an SE(3)-aligned and a Sim(3)-aligned
APE are different quantities (the guide: "do not silently mix these evaluation settings
within one ranking").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.aggregation import check_same_settings
from robot_msgs.compare.ranking import Ranking, RankingRow
from robot_msgs.compare.statistics import ErrorStats
from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.run_report import RunReport

__all__ = ["MIXED", "average_ranks", "rank_algorithms"]

#: What a forced ranking shows for a setting that differs between comparisons.
MIXED = "<mixed>"


def average_ranks(scores: Sequence[float]) -> list[float]:
    """Ranks of ``scores``, smallest first from 1; ties and NaNs share their mean place.

    NaN (no score) ranks after every number.

    Examples
    --------
    >>> average_ranks([0.2, 0.1, 0.2, float("nan")])
    [2.5, 1.0, 2.5, 4.0]
    """
    values = np.array(scores, dtype=np.float64)
    keyed = np.where(np.isnan(values), np.inf, values)
    order = np.argsort(keyed, kind="stable")
    sorted_keys = keyed[order]
    ranks = np.empty(values.size)
    # Average rank of each run of equal keys: the mean of its 1-based positions.
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
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
) -> Ranking | None:
    """Rank the algorithms of ``reports`` by one metric across sequences.

    Parameters
    ----------
    reports : sequence of RunReport
        Runs of several algorithms on several sequences (``algorithm``/``sequence``
        group them).
    metric : str, optional
        The name of the comparison to rank by (``"ape:translation"``); default: each
        run's first, the run settings' first metric.
    signal : str, optional
        Which signal of it (default: its first, ``"translation"`` for APE).
    statistic : str
        Which ``ErrorStats`` field of each run (``"rms"``, ``"median"``, ``"max"``...).
    force : bool
        Rank comparisons made with different settings anyway; the ranking says so.

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
        An unknown ``statistic``, or a comparison without ``signal``.

    Examples
    --------
    >>> from robot_msgs.catalog import example
    >>> run = example("compare/RunReport")
    >>> ranking = rank_algorithms([run, run.replace(name="b", algorithm="dvo")])
    >>> [row.algorithm for row in ranking.rows], ranking.settings["align"]
    (['dvo', 'orb'], 'se3')
    """
    if statistic not in ErrorStats.__dataclass_fields__:
        msg = f"Expected an ErrorStats field as statistic, got {statistic!r}"
        raise ValidationError(msg)
    chosen = {r.name: r.accuracy if metric is None else r.comparisons.get(metric) for r in reports}
    comparisons = [c for c in chosen.values() if c is not None]
    if not comparisons:
        return None
    if signal is None:
        signal = next(iter(comparisons[0].stats))
    evaluable = {r.sequence for r in reports if chosen[r.name] is not None}
    reports = [r for r in reports if r.sequence in evaluable]
    for r in reports:
        c = chosen[r.name]
        if c is not None and signal not in c.stats:
            got = list(c.stats)
            msg = f"Expected signal {signal!r} in the {c.metric} of run {r.name!r}, got {got}"
            raise ValidationError(msg)
    settings = check_same_settings(comparisons, force=force)
    mixed = sorted(k for k, v in settings.items() if v == MIXED)
    algorithms = list(dict.fromkeys(r.algorithm for r in reports))
    sequences = list(dict.fromkeys(r.sequence for r in reports))
    scores: dict[str, dict[str, float]] = {a: {} for a in algorithms}
    for algorithm in algorithms:
        for sequence in sequences:
            runs = [r for r in reports if r.algorithm == algorithm and r.sequence == sequence]
            if not runs:
                continue
            values = [
                getattr(c.stats[signal], statistic)
                for r in runs
                if r.success and (c := chosen[r.name]) is not None
            ]
            finite = [v for v in values if math.isfinite(v)]
            scores[algorithm][sequence] = float(np.median(finite)) if finite else math.nan
    ranks: dict[str, dict[str, float]] = {a: {} for a in algorithms}
    for sequence in sequences:
        present = [a for a in algorithms if sequence in scores[a]]
        for algorithm, rank in zip(
            present, average_ranks([scores[a][sequence] for a in present]), strict=True
        ):
            ranks[algorithm][sequence] = rank
    rows = []
    for algorithm in algorithms:
        runs = [r for r in reports if r.algorithm == algorithm]
        coverages = [r.coverage for r in runs if math.isfinite(r.coverage)]
        rows.append(
            RankingRow(
                algorithm=algorithm,
                position=1,
                mean_rank=float(np.mean(list(ranks[algorithm].values()))),
                n_runs=len(runs),
                n_succeeded=sum(r.success for r in runs),
                mean_coverage=float(np.mean(coverages)) if coverages else math.nan,
                scores=scores[algorithm],
                ranks=ranks[algorithm],
            )
        )
    rows.sort(key=lambda row: (row.mean_rank, -row.success_rate, row.algorithm))
    unit = comparisons[0].units[signal]
    notes: tuple[str, ...] = ()
    if mixed:
        notes = (
            f"FORCED: comparisons with different {', '.join(mixed)} settings are ranked together",
        )
    return Ranking(
        metric=comparisons[0].metric,
        signal=signal,
        statistic=statistic,
        unit=unit,
        sequences=tuple(sequences),
        rows=tuple(row.replace(position=i) for i, row in enumerate(rows, start=1)),
        settings=settings,
        forced=bool(mixed),
        notes=notes,
    )
