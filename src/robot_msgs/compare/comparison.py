"""``Comparison``: one estimate against one reference, its signals, and how they were made.

Three things are kept apart: the evaluation ``settings`` chosen (an
:class:`~robot_msgs.evaluation.EvaluationSettings`), the metric's own ``parameters``
(the relation, the RPE pairs, the drift segments) and what the evaluation ``estimated``
for its data (:class:`Estimates`: a clock offset, NEES bounds). Two comparisons were
made the same way exactly when their settings and parameters are equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

from robot_msgs.compare.aggregation import check_counts
from robot_msgs.compare.extrinsic import Extrinsic
from robot_msgs.compare.signal import Signal, find_signal, signal_summary
from robot_msgs.compare.time_offset import TimeOffset
from robot_msgs.evaluation.consistency import NEES_DOF
from robot_msgs.evaluation.settings import EvaluationSettings
from robot_msgs.msg import Msg, Value, message

if TYPE_CHECKING:
    from robot_msgs.compare.statistics import ErrorStats

__all__ = ["Comparison", "Estimates"]


@message("compare/Estimates")
class Estimates(Msg):
    """What an evaluation estimated or derived from its data, as opposed to what was chosen.

    Attributes
    ----------
    time_offset : TimeOffset or None
        The clock offset estimated for the association
        (``EvaluationSettings.offset_auto``), with its uncertainty and cost curve.
    extrinsic : Extrinsic or None
        The sensor-to-body transform estimated and applied as ``transform_right``
        (``EvaluationSettings.transform_right_auto``).
    nees_dof : int or None
        The chi-square degrees of freedom of the NEES.
    nees_mean_bounds, nees_pose_bounds : tuple of float or None
        The two-sided bounds (``(low, high)``) of the mean and of one pose's NEES, for
        the run's pose count and the settings' ``confidence``.

    Examples
    --------
    >>> Estimates(nees_dof=3, nees_mean_bounds=(2.5, 3.6)).nees_mean_bounds
    (2.5, 3.6)
    """

    time_offset: TimeOffset | None = None
    extrinsic: Extrinsic | None = None
    nees_dof: int | None = None
    nees_mean_bounds: tuple[float, ...] | None = None
    nees_pose_bounds: tuple[float, ...] | None = None


@message("compare/Comparison")
class Comparison(Msg):
    """One estimate against one reference: its signals, and how they were made.

    WHY the settings travel with the numbers: an APE after Sim(3) alignment and one
    after SE(3) alignment are different quantities; rankings and aggregates compare
    ``settings`` and ``parameters`` and refuse to mix (the SLAM guide: "do not silently
    mix these evaluation settings").

    Attributes
    ----------
    metric : str
        What was computed (``"ape"``, ``"rpe"``, ``"kitti_drift"``,
        ``"relative_error"``, ``"tracking"``...).
    signals : tuple of Signal
        Its :class:`~robot_msgs.compare.Signal` values, names distinct, with their series
        in a full result and without in a summary (:meth:`summary`).
    settings : EvaluationSettings or None
        How the trajectories were associated and aligned; ``None`` where no trajectory
        was associated (control tracking).
    parameters : mapping of str to value
        The metric's own (``relation``, ``delta``, ``lengths_m``...).
    estimated : Estimates or None
        What was estimated per evaluation (a clock offset, an extrinsic, NEES bounds),
        which may differ between comparisons made the same way; ``None``: nothing.
    estimate : str
        The estimate's label (a file name, a run name); ``""`` when not said.
    reference : str
        The reference's label; ``""`` when not said.
    counts : mapping of str to int
        Sample bookkeeping, each count >= 0, such as ``{"estimate": 788, "reference":
        3000, "matched": 788}``.
    notes : tuple of str
        The warnings a reader must see.

    Examples
    --------
    >>> from robot_msgs.compare import Signal
    >>> c = Comparison(metric="ape", signals=(Signal.of("translation", "m", [0.1, 0.2],
    ...                                                 stamps_s=[0.0, 1.0]),))
    >>> round(c.stats["translation"].rms, 6), c.units["translation"]
    (0.158114, 'm')
    """

    metric: str
    signals: tuple[Signal, ...]
    settings: EvaluationSettings | None = None
    parameters: Mapping[str, Value] = field(default_factory=dict)
    estimated: Estimates | None = None
    estimate: str = ""
    reference: str = ""
    counts: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        if "stats" not in data:
            return data
        from robot_msgs.compare.migrate import comparison_v0  # noqa: PLC0415 - old files only

        return comparison_v0(data)

    def _validate(self) -> None:
        names = [s.name for s in self.signals]
        twice = next((n for n in names if names.count(n) > 1), None)
        if twice is not None:
            expected = f"signals of distinct names ({twice!r} twice)"
            raise self._fail(field="signals", expected=expected, got=names)
        check_counts(self, "counts", self.counts)

    @property
    def stats(self) -> Mapping[str, ErrorStats]:
        """Each signal's statistics by name (a view of ``signals``)."""
        return {s.name: s.stats for s in self.signals}

    @property
    def units(self) -> Mapping[str, str]:
        """Each signal's unit by name (a view of ``signals``)."""
        return {s.name: s.unit for s in self.signals}

    def _repr_field(self, name: str, value: Any) -> str | None:  # noqa: ARG002 - the hook's
        if name != "signals":
            return None
        inner = ", ".join(signal_summary(s) for s in self.signals)
        return f"({inner},)" if len(self.signals) == 1 else f"({inner})"

    def signal(self, name: str) -> Signal | None:
        """Return the signal called ``name``, or ``None``."""
        return find_signal(self.signals, name)

    def summary(self) -> Comparison:
        """Return this comparison without the signals' series (what a run report keeps)."""
        if all(s.series is None for s in self.signals):
            return self
        return self.replace(signals=tuple(s.summary() for s in self.signals))

    def applies(self, name: str) -> bool:
        """Say whether the setting ``name`` is one of this comparison's.

        ``confidence`` bounds APE's NEES alone: a result of another relation that lacks
        it has not lost it (``res`` noted it as "not recorded" there, and refused to rank
        an RPE result beside an evo zip for it).

        Examples
        --------
        >>> c = Comparison(metric="ape", signals=(), parameters={"relation": "translation"})
        >>> c.applies("confidence"), c.applies("align")
        (False, True)
        """
        relation = self.parameters.get("relation")  # several: a tuple (ape's)
        relations = relation if isinstance(relation, tuple) else (relation,)
        return name != "confidence" or any(r in NEES_DOF for r in relations)

    def record(self) -> dict[str, Value]:
        """Return the parameters and the settings as one flat mapping (tables, tallies).

        Only the settings that :meth:`applies` names as this comparison's.

        Examples
        --------
        >>> from robot_msgs.evaluation import EvaluationSettings
        >>> c = Comparison(metric="ape", signals=(), parameters={"relation": "translation"},
        ...                settings=EvaluationSettings(align="se3"))
        >>> list(c.record())[:3]
        ['relation', 'align', 'n_align']
        """
        settings = {} if self.settings is None else self.settings.record()
        # A devkit drift by nominal length records no per_actual_length (Drift.record omits
        # it off), one in metres no lengths_s, one in seconds no lengths_m: res said them
        # "not recorded" there beside one per actual length, or in the other unit.
        kitti = self.metric == "kitti_drift"
        off: dict[str, Value] = (
            {"per_actual_length": False, "lengths_m": None, "lengths_s": None} if kitti else {}
        )
        return {**off, **self.parameters, **{k: v for k, v in settings.items() if self.applies(k)}}
