"""Relative pose error (RPE) as a ``Comparison``: pairs ``delta`` apart, their motion compared."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.error_stats import error_stats
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.pairs import select_pairs
from robot_msgs.evaluation.pipeline import prepare, stamps_if_increasing
from robot_msgs.evaluation.relations import (
    RELATION_UNITS,
    RPE_RELATIONS,
    check_relation,
    rpe_errors,
)

if TYPE_CHECKING:
    from robot_msgs.compare.comparison import Comparison
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["PAIRS_FROM", "rpe", "rpe_from_prepared"]

#: Which trajectory's motion selects the pairs.
PAIRS_FROM: tuple[str, ...] = ("estimate", "reference")


def rpe(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    relation: str = "translation",
    delta: float = 1.0,
    delta_unit: str = "f",
    all_pairs: bool = False,
    pairs_from: str = "estimate",
    rel_delta_tol: float = 0.1,
    align: str = "none",
    n_align: int | None = None,
    align_window_s: tuple[float, float] | None = None,
    sync: str = "nearest",
    max_diff_s: float = 0.01,
    offset_s: float = 0.0,
    max_gap_s: float | None = None,
    reference_name: str = "",
    estimate_name: str = "",
) -> Comparison:
    """Relative pose error of ``estimate`` against ``reference`` over pose pairs ``delta`` apart.

    For each pair ``(i, j)`` of matched poses (:func:`~robot_msgs.evaluation.select_pairs`),
    ``E_ij = (Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j)`` reduced by ``relation``
    (:func:`~robot_msgs.evaluation.rpe_errors`). The same computation as ``evo_rpe``
    (evo 1.38.1) for what both share: ``delta_unit`` ``f``, ``m``, ``rad``, ``deg``,
    ``--all_pairs``, ``--pairs_from_reference``, alignment as in
    :func:`~robot_msgs.evaluation.ape` (pairs are taken from the *aligned* estimate, as
    evo does). The unit ``s`` (seconds) is ours; its rule is in
    :mod:`robot_msgs.evaluation.pairs`.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test; neither is modified.
    relation : str
        One of :data:`~robot_msgs.evaluation.RPE_RELATIONS`.
    delta : float
        The interval between the poses of a pair, in ``delta_unit``.
    delta_unit : {"f", "s", "m", "rad", "deg"}
        Frames, seconds, metres of path, or rotation angle.
    all_pairs : bool
        Start a pair at every pose instead of consecutive, non-overlapping pairs.
    pairs_from : {"estimate", "reference"}
        Whose motion selects the pairs (evo's default is the estimate).
    rel_delta_tol : float
        Relative tolerance of the all-pairs rules and of ``s`` (evo's 0.1).
    align, n_align, align_window_s, sync, max_diff_s, offset_s, max_gap_s
        As for :func:`~robot_msgs.evaluation.ape`.
    reference_name, estimate_name : str
        Labels stored in the result.

    Returns
    -------
    Comparison
        ``metric="rpe"``, stats keyed by the relation; ``counts`` adds ``pairs``; the
        error series has the pairs' end stamps as time axis when those increase strictly
        (consecutive pairs, frame deltas), otherwise ``iae``/``ise``/``itae`` are NaN.

    Raises
    ------
    ValidationError
        An unknown relation or setting, or a ``delta`` that gives no pair at all.
    AssociationError, AlignmentError
        Nothing matched in time, or a degenerate alignment.

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
    >>> result = rpe(ref, est, delta=1.0, delta_unit="s", all_pairs=True)
    >>> round(result.stats["translation"].rms, 6), result.counts["pairs"]
    (0.01, 91)
    """
    name = check_relation(relation, allowed=RPE_RELATIONS)
    _check_pairs_from(pairs_from)
    prep = prepare(
        reference,
        estimate,
        align=align,
        n_align=n_align,
        align_window_s=align_window_s,
        sync=sync,
        max_diff_s=max_diff_s,
        offset_s=offset_s,
        max_gap_s=max_gap_s,
    )
    return rpe_from_prepared(
        prep,
        relation=name,
        delta=delta,
        delta_unit=delta_unit,
        all_pairs=all_pairs,
        pairs_from=pairs_from,
        rel_delta_tol=rel_delta_tol,
        reference_name=reference_name,
        estimate_name=estimate_name,
    )


def _check_pairs_from(pairs_from: str) -> None:
    if pairs_from not in PAIRS_FROM:
        msg = f"Expected pairs_from in {', '.join(PAIRS_FROM)}, got {pairs_from!r}"
        raise ValidationError(msg)


def rpe_from_prepared(
    prepared: Prepared,
    *,
    relation: str = "translation",
    delta: float = 1.0,
    delta_unit: str = "f",
    all_pairs: bool = False,
    pairs_from: str = "estimate",
    rel_delta_tol: float = 0.1,
    reference_name: str = "",
    estimate_name: str = "",
) -> Comparison:
    """The RPE of trajectories already associated and aligned by :func:`prepare`.

    What :func:`rpe` computes after its :func:`prepare`; call it to reuse one preparation
    for several deltas or relations (a report's RPE per delta does).

    Parameters
    ----------
    prepared : Prepared
        The matched reference and aligned estimate, with their settings.
    relation, delta, delta_unit, all_pairs, pairs_from, rel_delta_tol
        As for :func:`rpe`.
    reference_name, estimate_name : str
        Labels stored in the result.

    Returns
    -------
    Comparison
        As :func:`rpe` returns it.

    Raises
    ------
    ValidationError
        An unknown relation or setting, or a ``delta`` that gives no pair at all.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.evaluation import prepare
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(5.0)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (5, 1)),
    ... )
    >>> prep = prepare(ref, ref.replace(positions_xyz=ref.positions_xyz * 1.5))
    >>> [rpe_from_prepared(prep, delta=d).stats["translation"].mean for d in (1, 2)]
    [0.5, 1.0]
    """
    name = check_relation(relation, allowed=RPE_RELATIONS)
    _check_pairs_from(pairs_from)
    source = prepared.estimate if pairs_from == "estimate" else prepared.reference
    pairs = select_pairs(
        source, delta, delta_unit, all_pairs=all_pairs, rel_delta_tol=rel_delta_tol
    )
    if pairs.shape[0] == 0:
        msg = (
            f"delta = {delta!r} {delta_unit} gave no pose pair among the {len(source)} matched "
            f"poses of the {pairs_from} (duration {source.duration_s:.6g} s, path "
            f"{source.path_length_m:.6g} m): use a smaller delta"
            + ("" if all_pairs else " or all pairs")
        )
        raise ValidationError(msg)
    errors = rpe_errors(prepared.reference, prepared.estimate, pairs, name)
    notes: list[str] = []
    if name == "point_distance_error_ratio":
        dropped = int(np.count_nonzero(np.isnan(errors)))
        if dropped:
            notes.append(
                f"{dropped} pair(s) whose reference positions coincide have no distance "
                "ratio and were left out (evo drops them too)"
            )
    end_stamps = source.stamps_s[pairs[:, 1]]
    stats = error_stats(errors, t=stamps_if_increasing(end_stamps))
    return prepared.comparison(
        "rpe",
        {name: stats},
        {name: RELATION_UNITS[name]},
        settings={
            "relation": name,
            "delta": float(delta),
            "delta_unit": delta_unit,
            "all_pairs": all_pairs,
            "pairs_from": pairs_from,
            "rel_delta_tol": float(rel_delta_tol),
        },
        counts={"pairs": int(pairs.shape[0])},
        notes=notes,
        reference_name=reference_name,
        estimate_name=estimate_name,
    )
