"""One entry point for many metrics: :func:`evaluate`, and the one-metric wrappers.

``evaluate(reference, estimate, settings, metrics=[Ape(), Rpe(...), Drift()])`` cuts,
matches and aligns the trajectories once (:mod:`robot_msgs.evaluation.pipeline`) and
computes every metric on them, one :class:`~robot_msgs.compare.EvaluationResult` each;
the TUM RPE protocol matches the poses its own way
(:mod:`robot_msgs.evaluation.tum_rpe`). The metrics are the messages :class:`Ape`,
:class:`Rpe` and :class:`Drift` (a tagged union: their ``"_type"`` says which).
:func:`ape`, :func:`rpe`, :func:`kitti_drift` and :func:`relative_error` evaluate one.

WHY one entry point: the command line, ``runs/`` (reports, sweeps) and a Python caller
computing several metrics used to each prepare the trajectories and dispatch to the
metrics their own way (and ``runs/`` kept its own cache of preparations and its own TUM
dispatch); now they all call this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias, TypeGuard, cast, overload

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.ape import ape_result
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.drift import kitti_result, rpg_path_length_m, rpg_result
from robot_msgs.evaluation.pipeline import prepare
from robot_msgs.evaluation.rpe import rpe_result
from robot_msgs.evaluation.settings import (
    RPG_FRACTIONS,
    RPG_SETTINGS,
    Ape,
    Drift,
    EvaluationSettings,
    PairSettings,
    Rpe,
    check_inputs,
)
from robot_msgs.evaluation.spatial import check_forward_pairs
from robot_msgs.evaluation.tum_rpe import check_tum_settings, tum_rpe_result

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "Metric",
    "ape",
    "check_metric_settings",
    "evaluate",
    "kitti_drift",
    "relative_error",
    "rpe",
]

#: A metric :func:`evaluate` computes.
Metric: TypeAlias = "Ape | Rpe | Drift"


def _tum(spec: Metric) -> TypeGuard[Rpe]:
    return isinstance(spec, Rpe) and spec.pairs[0].protocol == "tum"


def _numbers(name: str, values: Sequence[float]) -> tuple[float, ...]:
    """``values`` as a tuple for :class:`Drift`, or a :class:`ValidationError` naming ``name``.

    WHY: ``kitti_drift(ref, est, lengths_m=100)`` raised TypeError ('int' object is not
    iterable): one number where a sequence of them is meant.
    """
    given: object = values  # from callers without a type checker, anything
    try:
        if isinstance(given, str | bytes):
            raise TypeError  # noqa: TRY301 - text is a sequence of characters, not numbers
        return tuple(cast("Iterable[float]", given))
    except TypeError as err:  # not iterable: a number, a 0-d array
        got = f"{type(given).__name__} {given!r:.60}"
        msg = f"Expected `{name}` as a sequence of numbers (as [{given!r:.20}]), got {got}"
        raise ValidationError(msg, field=name, reason=msg) from err


def check_metric_settings(settings: EvaluationSettings, metric: Metric, name: str = "") -> None:
    """Refuse ``settings`` that ``metric`` refuses whatever the trajectories.

    TUM's protocol aligns nothing; RPE and drift take no ``spatial_pairs="first"``.
    :func:`evaluate` checks this before any work; a command checks it once for all its
    estimates, so the error names none of them; ``name``, the metric's among several
    (``report``'s), is said with its forward pairs.

    Raises
    ------
    ValidationError
        The setting ``metric`` refuses, as its field.

    Examples
    --------
    >>> settings = EvaluationSettings(sync="spatial", spatial_pairs="first")
    >>> check_metric_settings(settings, Ape())
    >>> check_metric_settings(settings, Rpe())
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: expected `spatial_pairs='path'` for RPE ...
    """
    if _tum(metric):
        check_tum_settings(settings)
    elif not isinstance(metric, Ape):
        what = "RPE" if isinstance(metric, Rpe) else "drift"
        check_forward_pairs(settings, f"{what} ({name})" if name else what)


@overload
def evaluate(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None = None,
    *,
    metrics: Iterable[Metric] = ...,
    reference_name: str = "",
    estimate_name: str = "",
    refused: Literal["raise"] = "raise",
) -> list[EvaluationResult]: ...
@overload
def evaluate(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None = None,
    *,
    metrics: Iterable[Metric] = ...,
    reference_name: str = "",
    estimate_name: str = "",
    refused: Literal["return"],
) -> list[EvaluationResult | ValidationError]: ...
def evaluate(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None = None,
    *,
    metrics: Iterable[Metric] = (Ape(),),
    reference_name: str = "",
    estimate_name: str = "",
    refused: Literal["raise", "return"] = "raise",
) -> list[EvaluationResult] | list[EvaluationResult | ValidationError]:
    """Evaluate ``estimate`` against ``reference`` by every metric, preparing them once.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test; neither is modified.
    settings : EvaluationSettings, optional
        Time range, transforms, clock offset, association, alignment and plane, shared
        by every metric (default: evo's, no alignment).
    metrics : iterable of Ape, Rpe or Drift
        What to compute, in order (a list, or a generator): :class:`Ape` (a
        relation), :class:`Rpe` (a relation and its pair settings, evo's or TUM's
        protocol), :class:`Drift` (KITTI or rpg segments).
    reference_name, estimate_name : str
        Labels stored in the results (file names, algorithm names).
    refused : {"raise", "return"}
        A metric refused (the :class:`ValidationError` below): ``"raise"`` it, checking
        every metric's settings before any work; or ``"return"`` it in the metric's place,
        the others computed. WHY a mode, not a second function: ``report`` notes the
        metrics a run refuses (an RPE delta in seconds on frame indices, one longer than
        the run) and keeps the others, each prepared, computed and warned once.

    Returns
    -------
    list of EvaluationResult
        One per metric, in order; with ``refused="return"``, a refused metric's
        :class:`ValidationError` in its place (a refusal in preparing the trajectories
        is each metric's that needs them).

    Raises
    ------
    ValidationError
        An argument of the wrong type; with ``refused="raise"``, settings a metric
        refuses (TUM's protocol aligns nothing; RPE and drift take no
        ``spatial_pairs="first"``), a delta that gives no pair, segments longer than the
        path.
    AssociationError, AlignmentError
        Nothing matched in time, or a degenerate alignment: no metric has a value.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(101) * 0.1
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (101, 1)),
    ... )
    >>> est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)  # 0.01 m/s drift
    >>> one_second = PairSettings(delta=1.0, delta_unit="s", all_pairs=True)
    >>> a, r = evaluate(ref, est, metrics=[Ape(), Rpe(pairs=(one_second,))])
    >>> round(a.stats["translation"].rms, 6), round(r.stats["translation"].rms, 6)
    (0.057879, 0.01)
    >>> a_minute = PairSettings(delta=60.0, delta_unit="s")
    >>> a, r = evaluate(ref, est, metrics=[Ape(), Rpe(pairs=(a_minute,))], refused="return")
    >>> a.counts["matched"], type(r).__name__
    (101, 'ValidationError')
    """
    settings, held = _arguments(reference, estimate, settings, metrics)
    if refused not in ("raise", "return"):
        msg = f"Expected `refused` as 'raise' or 'return', got {refused!r:.60}"
        raise ValidationError(msg, field="refused", reason=msg)
    names = (reference_name, estimate_name)
    one = _evaluator(reference, estimate, settings, names)
    if refused == "raise":
        for spec in held:
            check_metric_settings(settings, spec)  # before any work
        return [one(spec) for spec in held]

    def result_or_refusal(spec: Metric) -> EvaluationResult | ValidationError:
        try:
            check_metric_settings(settings, spec)
            return one(spec)
        except ValidationError as err:
            return err

    return [result_or_refusal(spec) for spec in held]


def _arguments(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None,
    metrics: Iterable[Metric],
) -> tuple[EvaluationSettings, tuple[Metric, ...]]:
    """Check :func:`evaluate`'s arguments' types; return the settings and the metrics held."""
    settings = EvaluationSettings() if settings is None else settings
    check_inputs(reference, estimate, settings)
    given: object = metrics  # from callers without a type checker, anything
    if isinstance(given, Ape | Rpe | Drift):
        msg = (
            f"Expected `metrics` as a sequence of Ape, Rpe or Drift, got one {type(given).__name__}"
            f" (`metrics=[{type(given).__name__}(...)]`)"
        )
        raise ValidationError(msg, field="metrics", reason=msg)
    try:
        # Held once: a generator or a map was used up by the checks below and its metrics
        # were silently not computed (``evaluate`` returned ``[]``).
        held: tuple[object, ...] = tuple(cast("Iterable[object]", given))
    except TypeError as err:
        got = type(given).__name__
        msg = f"Expected `metrics` as a sequence of Ape, Rpe or Drift, got {got} {given!r:.60}"
        raise ValidationError(msg, field="metrics", reason=msg) from err
    for k, spec in enumerate(held):
        if not isinstance(spec, Ape | Rpe | Drift):
            got = type(spec).__name__
            msg = f"Expected `metrics[{k}]` as an Ape, Rpe or Drift, got {got} {spec!r:.60}"
            raise ValidationError(msg, field="metrics", reason=msg)
    return settings, cast("tuple[Metric, ...]", held)


def _evaluator(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    names: tuple[str, str],
) -> Callable[[Metric], EvaluationResult]:
    """Return a function computing one metric, the trajectories prepared at its first use.

    The preparation (or its refusal) is kept for every later metric: it is prepared, and
    its warnings said, once (TUM's RPE matches the poses its own way).
    """
    prepared: list[Prepared | ValidationError] = []

    def once() -> Prepared:
        if not prepared:
            try:
                prepared.append(prepare(reference, estimate, settings, estimate_name=names[1]))
            except ValidationError as err:
                prepared.append(err)
        if isinstance(prepared[0], ValidationError):
            raise prepared[0]
        return prepared[0]

    def one(spec: Metric) -> EvaluationResult:
        if _tum(spec):
            return tum_rpe_result(reference, estimate, settings, spec, names)
        if isinstance(spec, Ape):
            return ape_result(once(), spec, names)
        if isinstance(spec, Rpe):
            return rpe_result(once(), spec, names)
        if spec.protocol == "kitti":
            return kitti_result(once(), spec, names)
        ready = once()
        return rpg_result(ready, spec, rpg_path_length_m(reference, settings), names)

    return one


def _one(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None,
    spec: Metric,
    names: tuple[str, str],
) -> EvaluationResult:
    """Return :func:`evaluate`'s result of the one metric ``spec`` (``names`` as it takes them)."""
    (result,) = evaluate(
        reference,
        estimate,
        settings,
        metrics=[spec],
        reference_name=names[0],
        estimate_name=names[1],
    )
    return result


def ape(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings | None = None,
    relation: str = "translation",
    reference_name: str = "",
    estimate_name: str = "",
) -> EvaluationResult:
    """Absolute pose error of ``estimate`` against ``reference``: associate, align, compare.

    :func:`evaluate` with ``metrics=[Ape(relation=relation)]``. For each matched pose
    ``E_i = P_i⁻¹ Q_i`` (``P`` the aligned estimate, ``Q`` the reference), reduced to one
    number by ``relation`` (:func:`~robot_msgs.evaluation.ape_errors`). The same
    computation as ``evo_ape`` (evo 1.38.1) for the settings both share: ``align="se3"``
    is ``--align``, ``"sim3"`` ``--align --correct_scale``, ``"scale"``
    ``--correct_scale``, ``"origin"`` ``--align_origin``, ``n_align`` ``--n_to_align``,
    ``max_diff_s``/``offset_s`` ``--t_max_diff``/``--t_offset``,
    ``t_start_s``/``t_end_s`` ``--t_start``/``--t_end``. One difference, when
    ``max_diff_s`` is wider than half the shorter trajectory's interval: where two
    estimate poses match one reference pose, the closer pair is kept and a note says how
    many were dropped; evo keeps both (:func:`~robot_msgs.evaluation.associate`).

    ``relation``: ``translation`` (m, evo ``trans_part``), ``angle_rad``,
    ``angle_deg``, ``full``, ``rot_part``, ``point_distance``, a signed axis
    ``x``/``y``/``z`` (m), the direction components (``along_track``...,
    ``roll_deg``...), ``nees``, ``nees_position``, ``nees_orientation`` (an estimate with
    covariances: the chi-square bounds for ``settings.confidence`` go to the result's
    ``comparison.estimated``, the count ``nees_inside_pose_bounds`` and a verdict to its notes).

    Returns
    -------
    EvaluationResult
        ``metric="ape"``, one signal named by the relation: the error of every matched
        pose at its stamp (so ``iae``/``ise``/``itae`` are set); ``counts`` (reference,
        estimate, matched, unmatched) and ``notes`` (association warnings, the fitted
        alignment); the matched reference, the aligned estimate and the alignment.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(101) * 0.1
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (101, 1)),
    ... )
    >>> est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)  # 0.01 m/s drift
    >>> result = ape(ref, est)
    >>> round(result.stats["translation"].rms, 6), result.counts["matched"]
    (0.057879, 101)
    >>> result.series["translation"].errors[-1].round(12)
    np.float64(0.1)
    """
    spec = Ape(relation=relation)
    return _one(reference, estimate, settings, spec, (reference_name, estimate_name))


def rpe(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings | None = None,
    pairs: PairSettings | Sequence[PairSettings] | None = None,
    relation: str = "translation",
    reference_name: str = "",
    estimate_name: str = "",
) -> EvaluationResult:
    """Relative pose error of ``estimate`` against ``reference`` over pose pairs ``delta`` apart.

    :func:`evaluate` with ``metrics=[Rpe(relation=relation, pairs=...)]``. For each pair
    ``(i, j)`` of matched poses (:func:`~robot_msgs.evaluation.select_pairs`),
    ``E_ij = (Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j)`` reduced by ``relation``. The same computation
    as ``evo_rpe`` (evo 1.38.1) for what both share: ``delta_unit`` ``f``, ``m``,
    ``rad``, ``deg``, ``--all_pairs``, ``--pairs_from_reference`` (pairs are taken from
    the *aligned* estimate, as evo does). The unit ``s`` (seconds) is ours
    (:mod:`robot_msgs.evaluation.pairs`). ``pairs``: one or several
    :class:`PairSettings` (default 1 frame, consecutive); several, differing only in
    ``delta``, give one signal per delta from one association and alignment, named
    ``relation@{delta}{unit}``, counted in ``pairs@1s``...; ``protocol="tum"`` runs TUM's
    ``evaluate_rpe.py`` rules (:mod:`robot_msgs.evaluation.tum_rpe`).

    Returns
    -------
    EvaluationResult
        ``metric="rpe"``; ``counts`` adds ``pairs``; each series holds each pair's
        error at its end stamp with the pair's rows.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(101) * 0.1
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (101, 1)),
    ... )
    >>> est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)  # 0.01 m/s drift
    >>> result = rpe(ref, est, pairs=PairSettings(delta=1.0, delta_unit="s", all_pairs=True))
    >>> round(result.stats["translation"].rms, 6), result.counts["pairs"]
    (0.01, 91)
    >>> result.series["translation"].pairs[0].tolist()
    [0, 10]
    """
    if pairs is None:
        pairs = PairSettings()
    if not isinstance(pairs, list | tuple):
        check_argument("pairs", pairs, PairSettings)  # raises unless one, naming what to pass
    chosen = (pairs,) if isinstance(pairs, PairSettings) else tuple(pairs)
    for item in chosen:
        check_argument("pairs", item, PairSettings)
    spec = Rpe(relation=relation, pairs=chosen)
    return _one(reference, estimate, settings, spec, (reference_name, estimate_name))


def kitti_drift(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings | None = None,
    lengths_m: Sequence[float] | None = None,
    step_frames: int = 10,
    per_actual_length: bool = False,
    lengths_s: Sequence[float] | None = None,
    reference_name: str = "",
    estimate_name: str = "",
) -> EvaluationResult:
    """KITTI odometry drift: translation (%) and rotation (deg/m) error per segment length.

    :func:`evaluate` with ``metrics=[Drift(protocol="kitti", ...)]``; the rules are in
    :mod:`robot_msgs.evaluation.drift`. The devkit aligns nothing (the default
    ``settings``); ``lengths_m`` (None: its 100 … 800 m) and ``step_frames`` (10) are
    its. ``per_actual_length`` divides each error by the segment's reference path distance
    instead of its nominal length (trajectopy's ``rpe()``; :class:`Drift`'s field).
    ``lengths_s``, instead of ``lengths_m``: segments in seconds, trajectopy's RPE per
    second (``translation_m_per_s``, ``rotation_deg_per_s``; :class:`Drift`'s field and
    rules: not with ``lengths_m`` or ``per_actual_length``).

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(301.0)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (301, 1)),
    ... )
    >>> est = ref.replace(positions_xyz=ref.positions_xyz * 1.02)  # 2 % too long
    >>> drift = kitti_drift(ref, est)

    Segments end one frame past their length (101 m, 201 m), and the devkit divides by the
    nominal length: 20 segments of 2.02 % and 10 of 2.01 %.

    >>> round(drift.stats["translation_pct"].mean, 9), drift.counts["segments"]
    (2.016666667, 30)
    """
    spec = Drift(
        protocol="kitti",
        lengths_m=None if lengths_m is None else _numbers("lengths_m", lengths_m),
        step_frames=step_frames,
        per_actual_length=per_actual_length,
        lengths_s=None if lengths_s is None else _numbers("lengths_s", lengths_s),
    )
    return _one(reference, estimate, settings, spec, (reference_name, estimate_name))


def relative_error(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings = RPG_SETTINGS,
    fractions: Sequence[float] = RPG_FRACTIONS,
    lengths_m: Sequence[float] | None = None,
    max_diff_ratio: float = 0.2,
    reference_name: str = "",
    estimate_name: str = "",
) -> EvaluationResult:
    """rpg_trajectory_evaluation's relative error over sub-trajectories of set lengths.

    :func:`evaluate` with ``metrics=[Drift(protocol="rpg", ...)]``; the rules are in
    :mod:`robot_msgs.evaluation.drift`. ``settings`` default to rpg's
    (:data:`RPG_SETTINGS`: one-to-one within 0.02 s, Sim(3)); ``fractions`` of the
    reference's path length (within the time range, as rpg cuts it), or ``lengths_m`` in
    metres; a segment is kept within ``max_diff_ratio × length``.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(101.0)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (101, 1)),
    ... )
    >>> est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)
    >>> result = relative_error(ref, est, lengths_m=[10.0], settings=EvaluationSettings())

    Starts 0 … 90 get 10 m segments, start 91 the 9 m one up to the end (1 m short, within
    0.2 × 10 m): 92 segments, each 1 % too long.

    >>> round(result.stats["translation_pct@10m"].max, 9), result.counts["segments"]
    (1.0, 92)
    """
    spec = Drift(
        protocol="rpg",
        lengths_m=None if lengths_m is None else _numbers("lengths_m", lengths_m),
        fractions=_numbers("fractions", fractions) if lengths_m is None else None,
        max_diff_ratio=max_diff_ratio,
    )
    return _one(reference, estimate, settings, spec, (reference_name, estimate_name))
