"""``Ranking``: algorithms ordered by one accuracy figure, with success shown beside it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from robot_msgs.compare.aggregation import check_counts
from robot_msgs.compare.configuration import Configuration
from robot_msgs.msg import Msg, Scalar, Value, message
from robot_msgs.msg.primitives import Count, MissingFloat, Position

__all__ = ["Ranking", "RankingRow"]


@message("compare/RankingRow")
class RankingRow(Msg):
    """One algorithm's line in a :class:`Ranking`: one configuration of it.

    Runs of one algorithm with another version or other parameters have their own line
    (:class:`~robot_msgs.compare.Configuration`); :attr:`name` reads what tables call it.

    Attributes
    ----------
    algorithm : str
        The algorithm the line ranks.
    position : int
        The line's place in the ranking, 1 first: by ``mean_rank``, then higher success
        rate, then name.
    mean_rank : float
        The mean of ``ranks`` over the sequences the algorithm ran on.
    n_runs : int
        Its runs on the ranked sequences, failed ones included.
    n_succeeded : int
        Those of them that succeeded, at most ``n_runs``.
    mean_coverage : float
        The mean share of the sequence its runs covered, in ``[0, 1]``, over all its
        runs on the ranked sequences, failed ones included (NaN: none said one).
    scores : mapping of str to float, the ranked figure's unit
        ``scores[sequence]``: the median over the algorithm's successful runs of that
        sequence of the ranked figure (over all of them, a failed one as infinity, where
        the ranking's ``settings`` say ``rank_failures="worst"``; NaN: no successful
        evaluable run, so never in a line none of whose runs failed; absent where it
        ran, ranked, but its successful runs have no such figure: no reference where
        others had one, an IAE of overlapping pairs, a report without the ranked
        comparison).
    ranks : mapping of str to float
        ``ranks[sequence]``: its rank among the algorithms on that sequence (1 is best,
        ties share the mean rank; an algorithm that ran but has no score takes the worst
        rank, one that did not run there is left out).
    version : str
        Which version of ``algorithm`` the line is; ``""`` when not said.
    parameters : mapping of str to scalar
        Which parameters of ``algorithm`` the line is; empty when not said.
    label : str
        What tables call the line: the algorithm alone when it had one configuration
        among the runs ranked, else told apart by what differs (``orb 2.0``,
        ``orb (n_features=1000)``); ``""`` in rankings saved without one.
    """

    algorithm: str
    position: Position  # 1-based, as Ranking orders its rows
    mean_rank: float
    n_runs: Count
    n_succeeded: int
    mean_coverage: MissingFloat = math.nan
    scores: Mapping[str, float] = field(default_factory=dict)
    ranks: Mapping[str, float] = field(default_factory=dict)
    version: str = ""
    parameters: Mapping[str, Scalar] = field(default_factory=dict)
    label: str = ""

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Read a NaN score of a line none of whose runs failed as no score ("n/a (k)").

        Rankings saved before 3486607 and 783f442 gave a cell of successful runs with no
        figure (an RPE's IAE, no reference where others had one) NaN, the "none succeeded"
        of failed runs, shown "- (k)"; it is now left out of ``scores``. Where every run of
        the line succeeded, a NaN was such a cell; otherwise it cannot be told from a cell
        of failed runs (the counts are the line's, not the cell's) and stays NaN.
        """
        runs, succeeded, scores = data.get("n_runs"), data.get("n_succeeded"), data.get("scores")
        if (
            type(runs) is not int
            or not _none_failed(runs, succeeded)
            or not isinstance(scores, Mapping)
        ):
            return data
        kept = {s: v for s, v in scores.items() if not _no_number(v)}
        return {**data, "scores": kept} if len(kept) < len(scores) else data

    def _validate(self) -> None:
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
        # WHY: such a NaN was read back as no score (``_upgrade``): a row made with one
        # changed in a JSON or pickle round trip, "- (k)" before and "n/a (k)" after.
        if _none_failed(self.n_runs, self.n_succeeded) and any(
            math.isnan(v) for v in self.scores.values()
        ):
            expected = (
                f"no NaN score in a line none of whose runs failed (n_runs = n_succeeded = "
                f"{self.n_runs}): a sequence of successful runs with no score is left out"
            )
            raise self._fail(field="scores", expected=expected, got=dict(self.scores))

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


def _none_failed(runs: int, succeeded: object) -> bool:
    """Whether a line has runs and none failed: a NaN score there can only be no score."""
    return runs >= 1 and succeeded == runs


def _no_number(value: object) -> bool:
    """Whether a saved score is NaN: ``null`` or ``"NaN"`` in JSON, a float NaN otherwise."""
    if value is None or value == "NaN":
        return True
    return isinstance(value, float) and math.isnan(value)


@message("compare/Ranking")
class Ranking(Msg):
    """Algorithms ranked by one statistic of one metric's signal, across sequences.

    Every figure is ranked closest to zero best
    (:func:`~robot_msgs.compare.statistics.rank_value`). A ranking of comparisons with
    differing settings is refused unless forced.

    WHY they travel: the guide says "do not silently mix these evaluation settings
    within one ranking".

    Attributes
    ----------
    metric : str
        The metric of the ranked figure (``"ape"``).
    signal : str
        Its signal (``"translation"``).
    statistic : str
        The ``ErrorStats`` field of that signal ranked (``"rms"``).
    unit : str
        The ranked figure's unit (``"m"``; ``"m·s"`` for an IAE of metres); ``""`` for a
        count or a ratio.
    sequences : tuple of str
        The ranked sequences: those where some run evaluated.
    rows : tuple of RankingRow
        One per algorithm configuration, in position order (1, 2, ...).
    settings : mapping of str to value
        The evaluation settings shared by every comparison behind it; the differing ones
        read ``"<mixed>"`` when ``forced``.
    forced : bool
        True when comparisons with differing settings were ranked together; ``notes``
        then say which.
    notes : tuple of str
        What a reader must know: a forced mix, ties, algorithms that ran on different
        sequences.
    left_out : mapping of str to int
        The runs of a sweep it lacks, by why: they failed to evaluate or were not
        evaluated, and count for no algorithm.
    magnitude : bool
        True when the statistic keeps the sign of errors that take one (some run's
        ``min`` below zero): each score is then the statistic's magnitude
        (``|median|``).
    target : float, the ranked figure's unit
        What a consistent estimate scores where that is not 0: a NEES is ranked by its
        mean's distance from its degrees of freedom (``|mean - 3|``,
        :func:`~robot_msgs.evaluation.consistency.rank_target`); 0 for every other figure.
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

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Read a ranking of rpg's yaw saved as ``yaw_deg@…`` (before the rename: c2d08f8)."""
        signal = data.get("signal")
        if not (isinstance(signal, str) and signal.startswith("yaw_deg@")):
            return data
        from robot_msgs.compare.migrate import ranking_v0  # noqa: PLC0415 - old files only

        return ranking_v0(data)

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
        if self.metric == "relative_error" and self.signal.startswith("yaw_deg@"):
            # WHY refused: a file saved before the rename then takes the migrating road
            from robot_msgs.compare.migrate import renamed_signal  # noqa: PLC0415 - old names

            renamed = renamed_signal(self.metric, self.signal)
            expected = f"rpg's yaw per segment as {renamed!r} (about world z)"
            raise self._fail(field="signal", expected=expected, got=self.signal)
