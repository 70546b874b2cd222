"""``GroupSummary`` (the runs of one configuration on one sequence) and ``Report`` (everything)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from robot_msgs.compare.aggregation import Aggregate, check_counts
from robot_msgs.compare.configuration import Configuration
from robot_msgs.compare.ranking import Ranking
from robot_msgs.compare.run_report import Repeatability, RunReport
from robot_msgs.compare.signal import Signal, find_signal
from robot_msgs.msg import Msg, Scalar, Value, message
from robot_msgs.msg.repr import by_names, short_repr

__all__ = ["GroupSummary", "Report"]


@message("compare/GroupSummary")
class GroupSummary(Msg):
    """Repeated runs of one algorithm on one sequence, summarised across runs.

    Runs of another version or with other parameters are another group, never pooled
    with these (:class:`~robot_msgs.compare.Configuration`). The success rate is
    reported from ``failures``, apart from accuracy.

    Attributes
    ----------
    algorithm : str
        The algorithm the runs ran.
    sequence : str
        The sequence they ran on.
    n_runs : int
        Every run of the group, failed ones included.
    failures : mapping of str to int
        Failed runs by reason; empty when every run succeeded.
    accuracy : Aggregate or None
        The :class:`Aggregate` of the successful runs' first APE comparisons (each
        signal's run RMSEs across runs, in the signal's unit: metres for
        ``translation``, degrees for ``angle_deg``); ``None`` when no run has one (no
        reference, or no APE among the metrics).
    signals : tuple of Signal
        For each per-run figure (``"coverage"``, ``"lost_s"``, ``"latency_p95_s"``,
        ``"peak_rss_bytes"``...), its distribution across the runs that have it, in the
        figure's unit (a signal without series; :meth:`signal` finds one by name); a
        figure no run has is left out.
    repeatability : Repeatability or None
        Set when there is no reference and at least two runs produced an estimate.
    version : str
        Which version of ``algorithm`` the runs are; ``""`` when not said.
    parameters : mapping of str to scalar
        Which parameters of ``algorithm`` the runs are; empty when not said.
    """

    algorithm: str
    sequence: str
    n_runs: int
    failures: Mapping[str, int] = field(default_factory=dict)
    accuracy: Aggregate | None = None
    signals: tuple[Signal, ...] = ()
    repeatability: Repeatability | None = None
    version: str = ""
    parameters: Mapping[str, Scalar] = field(default_factory=dict)

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        if not isinstance(data.get("signals"), Mapping):
            return data
        from robot_msgs.compare.migrate import group_summary_v0  # noqa: PLC0415 - old files

        return group_summary_v0(data)

    def _validate(self) -> None:
        check_counts(self, "failures", self.failures, n_runs=self.n_runs)

    @property
    def configuration(self) -> Configuration:
        """The configuration summarised (its algorithm, version and parameters)."""
        return Configuration.of(self.algorithm, self.version, self.parameters)

    def signal(self, name: str) -> Signal | None:
        """Return the per-run figure called ``name`` across runs, or ``None``."""
        return find_signal(self.signals, name)

    @property
    def n_failed(self) -> int:
        """Runs that did not succeed."""
        return sum(self.failures.values())

    @property
    def success_rate(self) -> float:
        """Share of the runs that succeeded, in ``[0, 1]``; NaN with no runs."""
        return (self.n_runs - self.n_failed) / self.n_runs if self.n_runs else math.nan


@message("compare/Report")
class Report(Msg):
    """A whole evaluation: every run's report, per-group summaries and the ranking.

    Attributes
    ----------
    runs : tuple of RunReport
        Every run's report, failed ones included.
    groups : tuple of GroupSummary
        One per (algorithm configuration, sequence): its runs summarised.
    ranking : Ranking or None
        The algorithms ranked by accuracy; ``None`` when no run had a reference (or an
        accuracy figure).
    settings : mapping of str to value
        The evaluation settings asked for (alignment, association tolerance, RPE
        deltas, gap and end tolerances), flat.
    tool_version : str
        The robot_msgs version that made the report; ``""`` when not said.
    notes : tuple of str
        What a reader must see (forced mixes, runs without a reference).
    """

    runs: tuple[RunReport, ...]
    groups: tuple[GroupSummary, ...] = ()
    ranking: Ranking | None = None
    settings: Mapping[str, Value] = field(default_factory=dict)
    tool_version: str = ""
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """Return the short form of a report of runs: the runs and groups by count and names.

        WHY: the 18 example runs' report was 117,720 characters, every field of every run
        report and group summary; ``report.runs[i]`` and ``report.groups[i]`` show them.
        A report of one run keeps the full form (``eval`` gives it back), as a message
        with small arrays does.
        """
        return short_repr(self) if len(self.runs) > 1 else Msg.__repr__(self)

    def _repr_field(self, name: str, value: Any) -> str | None:  # noqa: ARG002 - the hook's
        if name == "runs":
            return by_names([run.name for run in self.runs], "run")
        if name == "groups":
            return by_names([f"{g.algorithm}/{g.sequence}" for g in self.groups], "group")
        return None
