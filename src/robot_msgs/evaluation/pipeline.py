"""The steps every trajectory metric shares: associate in time, then align, and record how.

:func:`prepare` runs :func:`~robot_msgs.evaluation.associate` and
:func:`~robot_msgs.evaluation.align` and gathers what the resulting
:class:`~robot_msgs.compare.Comparison` must carry: the settings that change the numbers,
the pose counts, and the notes a reader must see.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.comparison import Comparison
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.alignment import align as fit_alignment
from robot_msgs.evaluation.association import METHODS, associate
from robot_msgs.rotations import angle_from_matrix

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.compare.alignment import Alignment
    from robot_msgs.compare.error_stats import ErrorStats
    from robot_msgs.evaluation.association import Association
    from robot_msgs.msg import Scalar
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = ["SYNC_METHODS", "Prepared", "prepare", "stamps_if_increasing"]

#: Association rules, as :func:`~robot_msgs.evaluation.associate` names them.
SYNC_METHODS: tuple[str, ...] = METHODS


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Prepared:
    """Associated and aligned trajectories, ready for a metric, with their bookkeeping.

    Attributes
    ----------
    association : Association
        The time matching, with the unaligned matched poses.
    estimate : PoseTrajectory
        The matched estimate poses, moved by ``alignment``.
    alignment : Alignment
        The transform applied to the estimate (identity for ``"none"``).
    settings : dict
        ``alignment``, ``n_align``, ``align_window_s`` and the association's settings.
    notes : tuple of str
        The association's notes and a one-line account of the alignment.
    """

    association: Association
    estimate: PoseTrajectory
    alignment: Alignment
    settings: dict[str, Scalar]
    notes: tuple[str, ...]

    @property
    def reference(self) -> PoseTrajectory:
        """The matched reference poses (the association's)."""
        return self.association.reference

    @property
    def counts(self) -> dict[str, int]:
        """Pose counts on both sides, matched and unmatched (the association's)."""
        return self.association.counts()

    def comparison(
        self,
        metric: str,
        stats: Mapping[str, ErrorStats],
        units: Mapping[str, str],
        *,
        settings: Mapping[str, Scalar],
        counts: Mapping[str, int] | None = None,
        notes: Sequence[str] = (),
        reference_name: str = "",
        estimate_name: str = "",
    ) -> Comparison:
        """The :class:`Comparison` of a metric computed on these trajectories.

        Every metric reports the same way: its own ``settings`` first, then the
        association's and alignment's; ``counts`` and ``notes`` add to this preparation's.

        Examples
        --------
        >>> from robot_msgs.compare import error_stats
        >>> from robot_msgs.trajectory import PoseTrajectory
        >>> t = np.arange(5.0)
        >>> ref = PoseTrajectory(
        ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
        ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (5, 1)),
        ... )
        >>> prep = prepare(ref, ref.replace(stamps_s=t[:3], positions_xyz=ref.positions_xyz[:3],
        ...                                 orientations_quat_xyzw=ref.orientations_quat_xyzw[:3]))
        >>> result = prep.comparison(
        ...     "demo", {"n": error_stats([1.0])}, {"n": ""}, settings={"k": 1}, counts={"x": 2}
        ... )
        >>> list(result.settings)[:3], result.counts["matched"], result.counts["x"]
        (['k', 'alignment', 'n_align'], 3, 2)
        """
        return Comparison(
            metric=metric,
            stats=stats,
            units=units,
            settings={**settings, **self.settings},
            estimate=estimate_name,
            reference=reference_name,
            counts={**self.counts, **(counts or {})},
            notes=(*self.notes, *notes),
        )


def _describe(alignment: Alignment) -> str:
    angle = math.degrees(float(angle_from_matrix(alignment.rotation[None])[0]))
    t = ", ".join(f"{v:.6g}" for v in alignment.translation_m)
    return (
        f"{alignment.method} alignment fitted on {alignment.n_fit} poses: rotation "
        f"{angle:.6g} deg, translation [{t}] m, scale {alignment.scale:.9g}"
    )


def prepare(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    align: str = "none",
    n_align: int | None = None,
    align_window_s: tuple[float, float] | None = None,
    sync: str = "nearest",
    max_diff_s: float = 0.01,
    offset_s: float = 0.0,
    max_gap_s: float | None = None,
) -> Prepared:
    """Associate ``estimate`` with ``reference`` and align it, as every metric does first.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test (any lengths); neither is modified.
    align : {"none", "se3", "sim3", "scale", "posyaw", "origin"}
        How the matched estimate is moved onto the reference (see
        :func:`~robot_msgs.evaluation.align`).
    n_align : int, optional
        Fit the alignment on the first ``n_align`` matched poses only.
    align_window_s : (float, float), optional
        Fit on the matched poses whose estimate stamps lie in this window, seconds.
    sync : {"nearest", "one_to_one", "interpolate"}
        The association rule (``"one-to-one"`` is accepted too).
    max_diff_s, offset_s, max_gap_s : float
        Association tolerance, estimate clock offset and interpolation gap limit, seconds.

    Returns
    -------
    Prepared
        The matched, aligned trajectories and what the result must record.

    Raises
    ------
    ValidationError
        An unknown ``sync`` or ``align`` value or bad fit rows.
    AssociationError
        No pose matched (the message gives both time spans).
    AlignmentError
        A degenerate fit (the message suggests an alternative).

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(4.0)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=[[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (4, 1)),
    ... )
    >>> est = ref.replace(stamps_s=t + 0.005, positions_xyz=ref.positions_xyz + 2.0)
    >>> prep = prepare(ref, est, align="se3")
    >>> prep.counts["matched"], prep.alignment.translation_m.round(12).tolist()
    (4, [-2.0, -2.0, -2.0])
    >>> bool(np.allclose(prep.estimate.positions_xyz, prep.reference.positions_xyz))
    True
    """
    method = sync.replace("-", "_")
    if method not in SYNC_METHODS:
        msg = f"Expected a sync method in {', '.join(SYNC_METHODS)}, got {sync!r}"
        raise ValidationError(msg)
    association = associate(
        reference,
        estimate,
        method=method,
        max_diff_s=max_diff_s,
        offset_s=offset_s,
        max_gap_s=max_gap_s,
    )
    aligned, alignment = fit_alignment(
        association.estimate,
        association.reference,
        method=align,
        n_first=n_align,
        window_s=align_window_s,
    )
    window = None if align_window_s is None else f"{align_window_s[0]!r}..{align_window_s[1]!r}"
    settings: dict[str, Scalar] = {
        "alignment": align,
        "n_align": n_align,
        "align_window_s": window,
        **association.settings(),
    }
    notes = list(association.notes)
    if align != "none":
        notes.append(_describe(alignment))
    return Prepared(
        association=association,
        estimate=aligned,
        alignment=alignment,
        settings=settings,
        notes=tuple(notes),
    )


def stamps_if_increasing(stamps_s: Float64Array) -> Float64Array | None:
    """``stamps_s`` when strictly increasing (a time axis for ``error_stats``), else ``None``.

    Examples
    --------
    >>> stamps_if_increasing(np.array([0.0, 1.0])), stamps_if_increasing(np.array([1.0, 1.0]))
    (array([0., 1.]), None)
    """
    if stamps_s.size > 1 and not bool(np.all(np.diff(stamps_s) > 0)):
        return None
    return stamps_s
