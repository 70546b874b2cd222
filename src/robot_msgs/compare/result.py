"""``EvaluationResult``: a trajectory metric's summary together with the evidence behind it.

Its :class:`~robot_msgs.compare.Comparison` holds every signal with its series (the time
axis, the errors, and for relative errors the pose pairs); the result adds the matched
reference and estimate poses, the alignment applied to the estimate, and which input
poses matched. The estimate as compared (aligned, projected) is derived on use.

WHY the matched estimate and not the aligned one: the matched poses are the input's own
arrays when every pose matches, so a result of 10^7 poses holds no second copy of them
(the aligned one was 560 MB, 0.44x the two inputs); an APE moves positions a chunk at a
time and never makes it (``benchmarks/bench_scale.py``: peak memory).

WHY results keep their evidence: a plot, a report or a saved file that needs the per-pose
errors reads them here instead of running the kernels again (which could drift from the
numbers summarised), and a user can keep, re-plot or re-analyse an evaluation later.
:func:`robot_msgs.from_dict` of a saved result's ``to_dict()`` gives an equal result.
"""

from __future__ import annotations

import functools
from dataclasses import field
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np

from robot_msgs.compare.alignment import Alignment, with_positions
from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.signal import select_signals
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.projection import project_to_plane
from robot_msgs.evaluation.settings import drift_protocol
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.optional import require
from robot_msgs.trajectory import PoseTrajectory
from robot_msgs.typing import Int64Array

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.compare.signal import ErrorSeries, Signal
    from robot_msgs.compare.statistics import ErrorStats
    from robot_msgs.compare.time_offset import TimeOffset
    from robot_msgs.msg import Value

__all__ = ["EvaluationResult", "compared_estimate"]


def compared_estimate(
    matched: PoseTrajectory, alignment: Alignment, plane: str | None = None
) -> PoseTrajectory:
    """Return the estimate as a metric compares it: ``matched`` moved by ``alignment``.

    Then projected onto ``plane`` when one is given (``project_to_plane``, after the
    alignment as evo does). The one derivation of :attr:`EvaluationResult.estimate` and
    of the evaluation pipeline's.
    """
    moved = alignment.apply(matched)
    return moved if plane is None else project_to_plane(moved, plane)


def drift_title(protocol: str, signals: Sequence[Signal]) -> str:
    """Return the title of a drift figure (``drift --plot``, :meth:`EvaluationResult.plot`).

    It names what ``signals`` (the per-length signals drawn) are, in their unit: per
    second where their lengths are in seconds (``drift --seconds``, a delta each). Of
    several quantities, only per segment or per second: the figure's curves name each.
    WHY: the title said "translation error" whatever was drawn, the rotation in deg/m or
    deg/s too (``result.plot("rotation_deg_per_m@1m")``).

    Examples
    --------
    >>> from robot_msgs.compare import Signal
    >>> def one(quantity, unit, **length):
    ...     return Signal.of(quantity, unit, [1.0], stamps_s=[0.0], **length)
    >>> drift_title("kitti", [one("translation_pct", "%", length_m=100.0)])
    'KITTI drift: translation error per segment [%]'
    >>> drift_title("kitti", [one("rotation_deg_per_s", "deg/s", delta=1.0, delta_unit="s")])
    'KITTI drift per second: rotation error [deg/s]'
    >>> drift_title("kitti", [one("translation_pct", "%"), one("rotation_deg_per_m", "deg/m")])
    'KITTI drift per segment'
    """
    from robot_msgs.report.figures import signal_label  # noqa: PLC0415 - plots only

    labels = list(dict.fromkeys(signal_label(s, parameters=False) for s in signals))
    seconds = bool(signals) and all(s.delta is not None for s in signals)
    if len(labels) != 1:  # WHY: two labels joined ran past the figure's edge (a review);
        # each curve says its quantity (evaluation_figure), the axis their units.
        return f"{protocol.upper()} drift per {'second' if seconds else 'segment'}"
    if seconds:
        return f"{protocol.upper()} drift per second: {labels[0].replace(' per second', '')}"
    return f"{protocol.upper()} drift: {labels[0]}"


@message("compare/EvaluationResult", derives=True)
class EvaluationResult(Msg):
    """One evaluation of an estimate against a reference: the comparison and its evidence.

    :attr:`estimate`, the estimate as compared, is derived from ``matched_estimate`` and
    ``alignment`` on first use. ``metric``, ``stats``, ``units``, ``series``,
    ``settings``, ``counts``, ``notes`` and ``time_offset`` are views of the comparison;
    the names of the two inputs are ``comparison.reference`` and ``comparison.estimate``.

    Attributes
    ----------
    comparison : Comparison
        The signals with their series, the settings, counts and notes.
    reference : PoseTrajectory
        The matched reference poses as compared (interpolated for
        ``sync="interpolate"``, and for ``"interpolate_longer"`` when the reference has
        more poses; projected with ``project_to_plane``).
    alignment : Alignment
        The transform that moves ``matched_estimate`` onto ``reference``.
    matched_estimate : PoseTrajectory or None
        The matched estimate poses before ``alignment``, one per reference pose (after
        the settings' transforms; interpolated for ``"interpolate_estimate"``, and for
        ``"interpolate_longer"`` when the estimate has more poses); ``None`` where
        ``compared_estimate`` is held.
    compared_estimate : PoseTrajectory or None
        The estimate as compared where it is not that derivation (rpg's scaled estimate,
        a result read from evo's zip, a result saved by release 3ddaaa9 or earlier);
        else ``None``.
    reference_index, estimate_index : ndarray, shape (K,), int64
        The rows of the matched poses in the input trajectories (of an interpolated
        side, the pose at or before each stamp); empty when not known.
    """

    comparison: Comparison
    reference: PoseTrajectory
    alignment: Alignment
    matched_estimate: PoseTrajectory | None = None
    compared_estimate: PoseTrajectory | None = None
    reference_index: Annotated[Int64Array, Shape("K")] = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64)
    )
    estimate_index: Annotated[Int64Array, Shape("K")] = field(
        default_factory=lambda: np.zeros(0, dtype=np.int64)
    )

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        if "series" not in data and "estimate" not in data:
            return data
        from robot_msgs.compare.migrate import result_v0, result_v1  # noqa: PLC0415 - old files

        if "series" in data:
            data = result_v0(data)
        return result_v1(data) if "estimate" in data else data

    def _validate(self) -> None:
        n = len(self.reference)
        held = {
            "compared_estimate": self.compared_estimate,
            "matched_estimate": self.matched_estimate,
        }
        given = [(name, poses) for name, poses in held.items() if poses is not None]
        if not given:
            expected = "the matched estimate poses (or the compared ones)"
            raise self._fail(field="matched_estimate", expected=expected, got=None)
        for name, poses in given:
            if len(poses) != n:
                expected = f"as many matched poses as the reference ({n})"
                raise self._fail(field=name, expected=expected, got=len(poses))
        if self.estimate_index.size not in (0, n):
            expected = f"one row per matched pose ({n})"
            raise self._fail(field="estimate_index", expected=expected, got=self.estimate_index)

    @functools.cached_property
    def estimate(self) -> PoseTrajectory:
        """The estimate as compared: ``matched_estimate`` moved by ``alignment``.

        Projected as ``comparison.settings.project_to_plane`` asks
        (:func:`compared_estimate`); ``compared_estimate`` when it is held. Made on first
        use and kept (about 0.1 s for 10^6 poses).
        """
        if self.compared_estimate is not None:
            return self.compared_estimate
        matched = self.matched_estimate
        assert matched is not None  # noqa: S101 - _validate requires one of the two
        settings = self.comparison.settings
        plane = None if settings is None else settings.project_to_plane
        return compared_estimate(matched, self.alignment, plane)

    @functools.cached_property
    def aligned_estimate(self) -> PoseTrajectory:
        """The matched estimate moved by the whole ``alignment``: what ``--plot`` draws.

        For the matched poses, :meth:`move` (``--save-aligned``) gives the same up to
        rounding. It is :attr:`estimate`, except for rpg's relative error
        (``metric="relative_error"``): that compares the estimate scaled by the Sim(3)
        scale only (each segment's relative motion, in which a rotation and a shift of
        the whole cancel), so its rotation and translation are applied here too, as
        rpg_trajectory_evaluation's trajectory plots draw its Sim(3)-aligned
        ``p_es_aligned``. WHY: ``drift --protocol rpg --plot`` drew the scaled one, 132°
        off the ground truth on fr2_desk, beside a ``--save-aligned`` file that was aligned.
        The scaled one's positions are divided by the scale and moved by
        :func:`compared_estimate`, as :meth:`move` moves them: only rotated and shifted,
        its pose covariances (which rpg does not scale) came out ``s²`` off :meth:`move`'s.
        """
        scaled = self.compared_estimate
        if scaled is None or self.metric != "relative_error":
            return self.estimate
        s = self.alignment.scale  # a Sim(3) scale, > 0
        return compared_estimate(with_positions(scaled, scaled.positions_xyz / s), self.alignment)

    def replace(self, **changes: Any) -> EvaluationResult:
        """Return a copy with some fields changed; ``estimate=`` sets the estimate as compared.

        ``replace(estimate=e)`` is ``replace(compared_estimate=e, matched_estimate=None)``
        (unless ``matched_estimate=`` is given too): the name results had for it before
        they kept the matched poses (release 3ddaaa9 and earlier), and the matched poses
        kept no longer say what was compared (a cut result has fewer).
        """
        if "estimate" in changes:
            if "compared_estimate" in changes:
                msg = "Expected `estimate=` or `compared_estimate=`, not both (the same field)"
                raise ValidationError(msg, field="estimate")
            changes["compared_estimate"] = changes.pop("estimate")
            changes.setdefault("matched_estimate", None)
        return Msg.replace(self, **changes)  # the decorator remakes the class: no super()

    def move(self, estimate: PoseTrajectory) -> PoseTrajectory:
        """Return poses of the estimate's input moved as the compared ones were.

        The settings' transforms (``transform_left``/``transform_right``), the mount
        estimated with ``transform_right_auto``, ``alignment`` and the plane projection,
        in the evaluation's order, applied to every pose given (the whole input, not only
        the matched ones): what ``--save-aligned`` writes.

        Parameters
        ----------
        estimate : PoseTrajectory
            Poses in the frame of the estimate this result's evaluation was given.

        Returns
        -------
        PoseTrajectory
            Same stamps; for the matched poses, equal to :attr:`aligned_estimate` (what
            ``--plot`` draws) up to rounding: :attr:`estimate`, the compared one, except
            for rpg's relative error, which compares the estimate scaled only.
        """
        from robot_msgs.evaluation.settings import EvaluationSettings  # noqa: PLC0415
        from robot_msgs.evaluation.transforms import apply_transforms  # noqa: PLC0415

        settings = self.comparison.settings
        if settings is not None:
            estimate = apply_transforms(estimate, settings)
        estimated = self.comparison.estimated
        if estimated is not None and estimated.extrinsic is not None:
            mount = EvaluationSettings(transform_right=estimated.extrinsic.transform_right())
            estimate = apply_transforms(estimate, mount)
        plane = None if settings is None else settings.project_to_plane
        return compared_estimate(estimate, self.alignment, plane)

    def _keep_estimate(self, estimate: PoseTrajectory) -> None:
        """Keep ``estimate`` as :attr:`estimate`, made already by the evaluation (not checked)."""
        self.__dict__["estimate"] = estimate

    @property
    def metric(self) -> str:
        """The comparison's metric name (``"ape"``, ``"rpe"``...)."""
        return self.comparison.metric

    @property
    def stats(self) -> Mapping[str, ErrorStats]:
        """The comparison's statistics per signal name."""
        return self.comparison.stats

    @property
    def units(self) -> Mapping[str, str]:
        """The comparison's unit per signal name."""
        return self.comparison.units

    @property
    def series(self) -> Mapping[str, ErrorSeries]:
        """The errors each signal summarised, by signal name."""
        return {s.name: s.series for s in self.comparison.signals if s.series is not None}

    @property
    def settings(self) -> Mapping[str, Value]:
        """The comparison's parameters and settings, flat (:meth:`Comparison.record`)."""
        return self.comparison.record()

    @property
    def counts(self) -> Mapping[str, int]:
        """The comparison's pose and pair counts."""
        return self.comparison.counts

    @property
    def notes(self) -> tuple[str, ...]:
        """The comparison's notes."""
        return self.comparison.notes

    @property
    def time_offset(self) -> TimeOffset | None:
        """The clock offset estimated for the association (``offset_auto``), or ``None``."""
        estimated = self.comparison.estimated
        return None if estimated is None else estimated.time_offset

    def plot(
        self,
        signals: str | Sequence[str] | None = None,
        *,
        title: str | None = None,
        plane: str | None = None,
        label: str | None = None,
    ) -> Any:
        """Draw this result as ``ape/rpe/drift --plot`` does and return the matplotlib Figure.

        The trajectories and the errors over time, drawn by
        :func:`robot_msgs.report.figures.evaluation_figure` (save it with
        :func:`robot_msgs.report.figures.save_figure` or ``fig.savefig``).

        Parameters
        ----------
        signals : str or sequence of str, optional
            Name(s) or quantities (every length of a drift's: ``"yaw_world_deg"``,
            :func:`~robot_msgs.compare.signal.select_signals`, as ``res --signal``) of the
            signals to draw over time (default: a drift's translation in %
            per segment length, :meth:`segment_signals`, as ``drift --plot``; else every
            signal that kept its series).
        title : str, optional
            Title of the error axes (default: the metric, ``"APE over time"``, ``"APE
            over frames"`` when the stamps are frame indices, ``"RPE over time (at
            pair end)"``: :func:`~robot_msgs.report.figure_text.over_time`).
        plane : {"xy", "xz", "yz", "xyz"}, optional
            Trajectory view (default: the reference's two widest axes).
        label : str, optional
            Legend label of the estimate (default: its name, ``comparison.estimate``, or
            ``"estimate"``).

        Returns
        -------
        matplotlib.figure.Figure
            Not shown and not saved; nothing global (``pyplot``) is touched.

        Raises
        ------
        MissingDependencyError
            matplotlib is not installed (``pip install 'robot_msgs[plot]'``).
        ValidationError
            A signal name the result does not hold, or none with a series; a plane not
            in ``PLANES``; a result without poses (read from evo's zip).
        """
        require("matplotlib", "plot", feature="EvaluationResult.plot()")
        from robot_msgs.report.figure_text import over_time  # noqa: PLC0415
        from robot_msgs.report.figures import PLANES, drawn_at, evaluation_figure  # noqa: PLC0415

        if plane is not None and plane not in PLANES:
            msg = (
                f"Expected `plane` as one of {', '.join(map(repr, PLANES))} (or None: the "
                f"widest), got {plane!r:.40}"
            )
            raise ValidationError(msg, field="plane")
        if not len(self.estimate):
            expected = (
                "matched poses to draw (a result read from evo's zip keeps only its errors: "
                "robot_msgs.report.plots.results_figure, or robot-msgs res --plot, draws them)"
            )
            raise self._fail(field="estimate", expected=expected, got="no poses")
        held = {s.name: s for s in self.comparison.signals if s.series is not None}
        if isinstance(signals, str):  # one name, not its letters; a path is not a signal
            if not select_signals(held.values(), [signals])[0]:
                expected = (
                    f"signal names or quantities, one of {sorted(held)} (to save the figure: "
                    "result.plot().savefig(path))"
                )
                raise self._fail(field="comparison.signals", expected=expected, got=signals)
            signals = [signals]
        if signals is None:  # a drift's per-length translation, as drift --plot; else all
            names = [s.name for s in self.segment_signals()] or list(held)
        else:  # a name, or a quantity: every length (res --signal's selection)
            chosen, unknown = select_signals(held.values(), signals)
            if unknown or not chosen:
                expected = f"signals with a series, by name or quantity, one of {sorted(held)}"
                raise self._fail(field="comparison.signals", expected=expected, got=unknown)
            names = [s.name for s in chosen]
        name = label or self.comparison.estimate or "estimate"
        frames = self.estimate.stamps_are_frames
        protocol = drift_protocol(self.metric)  # its lengths in seconds: per second
        seconds = protocol is not None and all(held[n].delta is not None for n in names)
        if seconds or all(held[n].length_m is not None for n in names):  # as drift --plot
            heading = title or drift_title(protocol or "kitti", [held[n] for n in names])
        else:
            at = drawn_at(self, held[names[0]])
            heading = title or over_time(self.metric.upper(), frames=frames, at=at)
        return evaluation_figure(
            [(name, self)],
            [held[n] for n in names],
            title=heading,
            plane=plane,
        )

    def segment_signals(self) -> list[Signal]:
        """Return the drift signals ``drift --plot`` draws: translation in % (m/s) per length.

        One per segment length with segments; empty for a metric without segments.
        :meth:`plot` and ``drift --plot`` both draw these.
        """
        # One place for both: plot() drew every signal of a KITTI drift on one axis (%
        # beside deg/m, 18 legend entries, "per frame"), where drift --plot drew these.
        return [
            s
            for s in self.comparison.signals
            # In %, or in m/s per length in seconds (drift --seconds): a delta's signal.
            if (s.quantity, s.length_m is None, s.delta is None)
            in (("translation_pct", False, True), ("translation_m_per_s", True, False))
            and s.stats.n
            and s.series is not None
        ]
