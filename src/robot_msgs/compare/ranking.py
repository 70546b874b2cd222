"""``Ranking``: algorithms ordered by one accuracy figure, with success shown beside it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import field

from robot_msgs.compare.aggregation import check_counts
from robot_msgs.compare.configuration import Configuration
from robot_msgs.msg import Msg, Scalar, Value, message
from robot_msgs.msg.primitives import MissingFloat

__all__ = ["Ranking", "RankingRow"]


@message("compare/RankingRow")
class RankingRow(Msg):
    """One algorithm's line in a :class:`Ranking`: one configuration of it.

    ``version`` and ``parameters`` say which configuration of ``algorithm`` the line is
    (:class:`~robot_msgs.compare.Configuration`): runs of one algorithm with another
    version or other parameters have their own line. ``label`` is what tables call it:
    the algorithm alone when it had one configuration among the runs ranked, else told
    apart by what differs (``orb 2.0``, ``orb (n_features=1000)``); :attr:`name` reads it.
    ``scores[sequence]`` is the median over the algorithm's successful runs of that
    sequence of the ranked figure (NaN: no successful evaluable run); ``ranks[sequence]``
    its rank among the algorithms on that sequence (1 is best, ties share the mean
    rank; an algorithm that ran but has no score takes the worst rank, one that did
    not run there is left out). ``mean_rank`` averages ``ranks``. ``success_rate`` and
    ``mean_coverage`` are over all its runs on the ranked sequences, failed ones included.
    """

    algorithm: str
    position: int
    mean_rank: float
    n_runs: int
    n_succeeded: int
    mean_coverage: MissingFloat = math.nan
    scores: Mapping[str, float] = field(default_factory=dict)
    ranks: Mapping[str, float] = field(default_factory=dict)
    version: str = ""
    parameters: Mapping[str, Scalar] = field(default_factory=dict)
    label: str = ""

    def _validate(self) -> None:
        if self.position < 1:  # 1-based, as Ranking orders its rows
            raise self._fail(field="position", expected="a position >= 1", got=self.position)
        if self.n_runs < 0:  # wrong on its own: named before the count it bounds
            raise self._fail(field="n_runs", expected="a count >= 0", got=self.n_runs)
        if not 0 <= self.n_succeeded <= self.n_runs:
            raise self._fail(
                field="n_succeeded",
                expected=f"a count in [0, n_runs={self.n_runs}]",
                got=self.n_succeeded,
            )
        if not (math.isnan(self.mean_coverage) or 0.0 <= self.mean_coverage <= 1.0):
            raise self._fail(
                field="mean_coverage", expected="a share in [0, 1] or NaN", got=self.mean_coverage
            )

    @property
    def name(self) -> str:
        """What tables call the line: its ``label``, else (saved without one) the algorithm."""
        return self.label or self.algorithm

    @property
    def configuration(self) -> Configuration:
        """The configuration the line ranks (its algorithm, version and parameters)."""
        return Configuration.of(self.algorithm, self.version, self.parameters)

    @property
    def success_rate(self) -> float:
        """Share of this algorithm's runs that succeeded; NaN with no runs."""
        return self.n_succeeded / self.n_runs if self.n_runs else math.nan


@message("compare/Ranking")
class Ranking(Msg):
    """Algorithms ranked by one statistic of one metric's signal, across sequences.

    ``metric``/``signal``/``statistic`` name the ranked figure (``"ape"``,
    ``"translation"``, ``"rms"``) in ``unit``. ``settings`` are the evaluation settings
    shared by every comparison behind it: a ranking of comparisons with differing
    settings is refused unless forced, and then ``forced`` is true, the differing
    settings read ``"<mixed>"`` and ``notes`` say so. ``left_out`` counts, by why, the
    runs of a sweep it lacks: they failed to evaluate or were not evaluated, and count for
    no algorithm. Every figure is ranked closest to zero best
    (:func:`~robot_msgs.compare.statistics.rank_value`): ``magnitude`` is true when the
    statistic keeps the sign of errors that take one (some run's ``min`` below zero), and
    each score is then the statistic's magnitude (``|median|``). ``target`` is what a
    consistent estimate scores where that is not 0: a NEES is ranked by its mean's
    distance from its degrees of freedom (``|mean - 3|``,
    :func:`~robot_msgs.evaluation.consistency.rank_target`).

    WHY they travel: the guide says "do not silently mix these evaluation settings
    within one ranking".
    """

    metric: str
    signal: str
    statistic: str
    unit: str
    sequences: tuple[str, ...]
    rows: tuple[RankingRow, ...]
    settings: Mapping[str, Value] = field(default_factory=dict)
    forced: bool = False
    notes: tuple[str, ...] = ()
    left_out: Mapping[str, int] = field(default_factory=dict)
    magnitude: bool = False
    target: float = 0.0

    @property
    def n_left_out(self) -> int:
        """How many runs the ranking lacks (see ``left_out``)."""
        return sum(self.left_out.values())

    def _validate(self) -> None:
        positions = [row.position for row in self.rows]
        if positions != list(range(1, len(self.rows) + 1)):
            raise self._fail(
                field="rows", expected="rows in position order 1, 2, ...", got=positions
            )
        check_counts(self, "left_out", self.left_out)
