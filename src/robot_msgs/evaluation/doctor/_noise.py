"""A side's noise a pose, from second differences, and whether it is white noise's.

The yardsticks of the doctor's checks of motions (:mod:`._motion_mismatch`) and of an
extrinsic on a line (:mod:`._frames`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.evaluation.doctor._rules import _GAPS_VARY, _GROWS, _MIN_MOTIONS, _RESOLVED, _WHITE
from robot_msgs.rotations import (
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    rotation_vector_from_quat_xyzw,
)

if TYPE_CHECKING:
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array, IntpArray


def _distance_noise(traj: PoseTrajectory) -> float:
    """Variance that white noise adds to a distance between two of the poses (m²).

    A pose's noise ``σ`` (:func:`_spread_and_noise`, over the three axes) makes the
    difference of two poses ``2 σ²``, a third of it along their direction: ``2 σ² / 3``.
    Zero where the second differences are no white noise's (:func:`_white`): sparse
    keyframes' are their motion's, which a distance does not gain.
    """
    if not _white(traj):
        return 0.0
    return 2.0 * _spread_and_noise(traj)[1] ** 2 / 3.0


def _turn_noise(traj: PoseTrajectory) -> float:
    """Variance that white orientation noise adds to the angle turned between two poses (rad²).

    The turns from pose to pose, ``log(R_iᵀ R_{i+1})``, differ from the next by
    ``n_{i+1} - 2 n_i + n_{i-1}`` of each pose's noise ``n`` (rotation vectors), as the
    positions' second differences do: their noise ``σ`` over three axes
    (:func:`_spread_and_noise_of`) adds ``2 σ² / 3`` to the angle about the turn's axis,
    as :func:`_distance_noise` to a distance. Zero where those differences are no white
    noise's (:func:`_white_of`).
    """
    q = traj.orientations_quat_xyzw
    steps = rotation_vector_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(q[:-1]), q[1:]))
    second = steps[1:] - steps[:-1]
    if not _white_of(second):
        return 0.0
    return 2.0 * _noise_variance(second) / 3.0


def _spread_and_noise(traj: PoseTrajectory) -> tuple[float, float]:
    """RMS distance of the positions from their mean, and their white noise a pose (m).

    The noise from second differences, ``var(p[i+1] - 2 p[i] + p[i-1]) = 6 σ²`` for
    independent noise of ``σ`` a pose (as :mod:`robot_msgs.evaluation.offset` measures a
    reference's): a side standing still spreads about once its noise.
    """
    return _spread_and_noise_of(traj.positions_xyz)


def _spread_and_noise_of(p: Float64Array) -> tuple[float, float]:
    """:func:`_spread_and_noise` of rows ``p`` ``(N, 3)``: any vectors in a sequence."""
    centred = p - p.mean(axis=0)
    spread = math.sqrt(float(np.einsum("ni,ni->", centred, centred)) / len(p))
    return spread, math.sqrt(_noise_variance(p[2:] - 2.0 * p[1:-1] + p[:-2]))


def _noise_variance(second: Float64Array) -> float:
    """White noise's variance a vector ``σ²`` from second differences ``(M, 3)``: ``Σ/6M``.

    ``var(n[i+1] - 2 n[i] + n[i-1]) = 6 σ²`` for independent noise ``n`` of ``σ``.
    """
    return float(np.einsum("ni,ni->", second, second)) / (6.0 * len(second))


def _white(traj: PoseTrajectory) -> bool:
    """Whether the positions' second differences look like white noise's.

    The second differences of independent noise correlate ``-4σ² / 6σ² = -2/3`` with the
    next; a smooth motion's follow each other (positive). Below :data:`_WHITE`: noise.
    """
    p = traj.positions_xyz
    return _white_of(p[2:] - 2.0 * p[1:-1] + p[:-2])


def _white_of(second: Float64Array) -> bool:
    """:func:`_white` of second differences ``(M, 3)`` of any sequence of vectors."""
    if len(second) < 2:
        return False
    power = float(np.einsum("ni,ni->", second, second))
    if not power > 0:
        return False
    return float(np.einsum("ni,ni->", second[1:], second[:-1])) / power < _WHITE


def _noise_resolved(raw: PoseTrajectory, index: IntpArray, matched: PoseTrajectory) -> bool:
    """Whether ``matched`` (rows ``index`` of ``raw``) shows ``raw``'s own noise a pose.

    Its noise by second differences no more than :data:`_RESOLVED` times that of the rows
    it spans in ``raw``: white noise keeps its size however sparsely sampled; a motion's
    second differences grow with the samples' spacing (keyframes a second apart of 3 m of
    wandering look like 3 m of noise a pose).
    """
    if index.size < 3 or len(raw) < 3:
        return False
    rows = raw.positions_xyz[int(index.min()) : int(index.max()) + 1]
    second = rows[2:] - 2.0 * rows[1:-1] + rows[:-2]
    if len(second) == 0:
        return False
    own = math.sqrt(float(np.einsum("ni,ni->", second, second)) / (6.0 * len(second)))
    return _spread_and_noise(matched)[1] <= _RESOLVED * own


def _steps_grow(traj: PoseTrajectory) -> bool:
    """Whether the steps between poses grow with the time between them: a motion sampled.

    White noise's steps do not depend on the gaps; a motion's, sampled sparsely, grow
    with them. Said where the gaps vary (the longest at least :data:`_GAPS_VARY` times the
    shortest) over at least :data:`_MIN_MOTIONS` steps and the steps' ranks correlate with
    the gaps' above :data:`_GROWS` (Spearman; about 2.8 standard errors of noise at 32
    poses).
    """
    gaps = np.diff(traj.stamps_s)
    if gaps.size < _MIN_MOTIONS or not float(gaps.max()) > _GAPS_VARY * float(gaps.min()):
        return False
    steps = np.linalg.norm(np.diff(traj.positions_xyz, axis=0), axis=1)
    ranks = [np.argsort(np.argsort(v)).astype(np.float64) for v in (steps, gaps)]
    if not (np.std(ranks[0]) and np.std(ranks[1])):
        return False
    return float(np.corrcoef(ranks[0], ranks[1])[0, 1]) > _GROWS
