"""``EvaluationResult``: a trajectory metric's summary together with the evidence behind it.

A :class:`~robot_msgs.compare.Comparison` summarises; an :class:`EvaluationResult` also
keeps what it summarised, per signal an :class:`ErrorSeries` (the time axis, the errors,
and for relative errors the pose pairs), plus the matched reference and the aligned
estimate that were compared, the alignment applied, and which input poses matched.

WHY results keep their evidence: a plot, a report or a saved file that needs the per-pose
errors reads them here instead of running the kernels again (which could drift from the
numbers summarised), and a user can keep, re-plot or re-analyse an evaluation later.
:func:`robot_msgs.from_dict` of a saved result's ``to_dict()`` gives an equal result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Annotated

import numpy as np

from robot_msgs.compare.alignment import Alignment
from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.statistics import ErrorStats, error_stats
from robot_msgs.compare.time_offset import TimeOffset
from robot_msgs.msg import Msg, Shape, Value, message
from robot_msgs.trajectory import PoseTrajectory
from robot_msgs.typing import Float64Array, Int64Array

__all__ = ["ErrorSeries", "EvaluationResult"]


@message("compare/ErrorSeries")
class ErrorSeries(Msg):
    """The per-sample errors one ``ErrorStats`` summarised, with their time axis.

    ``errors`` (``(N,)``, in the signal's unit, NaN where a sample has no value, such as
    an RPE distance ratio over a zero reference distance) at ``stamps_s`` (``(N,)``,
    seconds on the estimate's clock: the matched pose's stamp for APE, the end pose's for
    a pair). ``pairs`` (``(N, 2)``, int64) are the rows ``(i, j)`` of each pair in the
    result's matched trajectories, for relative errors (RPE, drift segments); ``None``
    for absolute errors, where row ``k`` is matched pose ``k``.

    Examples
    --------
    >>> s = ErrorSeries(stamps_s=[0.0, 1.0], errors=[0.3, 0.4])
    >>> round(s.stats().rms, 6), s.pairs is None
    (0.353553, True)
    """

    stamps_s: Annotated[Float64Array, Shape("N")]
    errors: Annotated[Float64Array, Shape("N")]
    pairs: Annotated[Int64Array, Shape("N", 2)] | None = None

    def __len__(self) -> int:
        return int(self.errors.shape[0])

    def stats(self) -> ErrorStats:
        """Return the statistics of these errors (the integrals when the stamps increase)."""
        t = self.stamps_s
        increasing = t.size < 2 or bool((t[1:] > t[:-1]).all())
        return error_stats(self.errors, t=t if increasing else None)


@message("compare/EvaluationResult")
class EvaluationResult(Msg):
    """One evaluation of an estimate against a reference: the summary and its evidence.

    ``comparison`` is the summary (statistics, units, settings, counts, notes);
    ``series`` holds, for each of its signals and in the same order, the errors it
    summarised. ``reference`` and ``estimate`` are the matched poses that were compared:
    the reference's (interpolated for ``sync="interpolate"``) and the estimate's *after*
    ``alignment``; ``reference_index``/``estimate_index`` (``(K,)``, int64) are their rows
    in the input trajectories (for ``interpolate``, the reference pose at or before each
    stamp). The properties ``metric``, ``stats``, ``units``, ``settings``, ``counts`` and
    ``notes`` are the comparison's; the names of the two inputs are
    ``comparison.reference`` and ``comparison.estimate``. ``time_offset`` is the clock
    offset estimated for the association (``EvaluationSettings.offset_auto``), with its
    cost curve, or ``None``.
    """

    comparison: Comparison
    series: Mapping[str, ErrorSeries]
    reference: PoseTrajectory
    estimate: PoseTrajectory
    alignment: Alignment
    reference_index: Annotated[Int64Array, Shape("K")] = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64)
    )
    estimate_index: Annotated[Int64Array, Shape("K")] = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64)
    )
    time_offset: TimeOffset | None = None

    def _validate(self) -> None:
        if list(self.series) != list(self.comparison.stats):
            expected = f"one series per signal, in order {list(self.comparison.stats)}"
            raise self._fail(field="series", expected=expected, got=list(self.series))
        if len(self.reference) != len(self.estimate):
            expected = f"as many matched poses as the reference ({len(self.reference)})"
            raise self._fail(field="estimate", expected=expected, got=len(self.estimate))
        if self.estimate_index.size not in (0, len(self.estimate)):
            expected = f"one row per matched pose ({len(self.estimate)})"
            raise self._fail(field="estimate_index", expected=expected, got=self.estimate_index)

    @property
    def metric(self) -> str:
        """The comparison's metric name (``"ape"``, ``"rpe"``...)."""
        return self.comparison.metric

    @property
    def stats(self) -> Mapping[str, ErrorStats]:
        """The comparison's statistics per signal."""
        return self.comparison.stats

    @property
    def units(self) -> Mapping[str, str]:
        """The comparison's unit per signal."""
        return self.comparison.units

    @property
    def settings(self) -> Mapping[str, Value]:
        """The settings the comparison records."""
        return self.comparison.settings

    @property
    def counts(self) -> Mapping[str, int]:
        """The comparison's pose and pair counts."""
        return self.comparison.counts

    @property
    def notes(self) -> tuple[str, ...]:
        """The comparison's notes."""
        return self.comparison.notes
