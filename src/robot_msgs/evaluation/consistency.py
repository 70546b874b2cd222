r"""Filter consistency: the normalised estimation error squared (NEES) of poses with covariances.

A filter that publishes covariances (``PoseWithCovarianceStamped``, ``Odometry``) claims
how wrong it may be. With the APE error ``e_i`` of pose ``i`` in the convention of its
covariance ``Σ_i`` (ROS's ``PoseWithCovariance``: position ``x, y, z`` in metres and
rotations about the fixed ``x, y, z`` axes of the world frame, in radians),

.. math::

    e_i = \begin{pmatrix} p_i - q_i \\ \operatorname{Log}(R(P_i) R(Q_i)^\top) \end{pmatrix},
    \qquad \mathrm{NEES}_i = e_i^\top \Sigma_i^{-1} e_i

(Bar-Shalom, Li and Kirubarajan, *Estimation with Applications to Tracking and
Navigation*, 2001, section 5.4.2). For a consistent filter ``NEES_i`` follows a
chi-square distribution with ``d`` degrees of freedom (6; 3 for the position or the
orientation block alone), its mean is ``d``, and the sum over ``N`` independent poses is
chi-square with ``N d``: the mean NEES lies within
``[χ²_{N d}(α/2) / N, χ²_{N d}(1 - α/2) / N]`` with probability ``1 - α`` (the stated
confidence), and each pose's NEES within ``[χ²_d(α/2), χ²_d(1 - α/2)]``. A mean above the
upper bound says the covariance is too small (overconfident), below the lower bound too
large (pessimistic). Successive errors of a filter are correlated, so the bound on the
mean is optimistic for real runs; the per-pose share inside its bounds does not depend on
that.

The covariance follows the estimate through extrinsic transforms and the alignment
(:mod:`robot_msgs.evaluation.transforms`, :meth:`~robot_msgs.compare.Alignment.apply`).
The chi-square quantiles come from SciPy (the ``science`` extra).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.statistics import error_stats
from robot_msgs.errors import ValidationError
from robot_msgs.optional import require
from robot_msgs.report.text import counted
from robot_msgs.rotations import (
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    rotation_vector_from_quat_xyzw,
)

if TYPE_CHECKING:
    from robot_msgs.msg import Value
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = ["NEES_DOF", "chi2_bounds", "nees_summary", "nees_values", "rank_target"]

# The rows and columns of the error and the covariance each relation uses: planar is
# x, y and the rotation about the world's z axis (yaw for a robot on the floor), what a
# 2-D filter (AMCL, a planar EKF) estimates; its other rows are not estimated.
_BLOCKS: dict[str, list[int]] = {
    "nees": [0, 1, 2, 3, 4, 5],
    "nees_position": [0, 1, 2],
    "nees_orientation": [3, 4, 5],
    "nees_planar": [0, 1, 5],
}

#: The NEES relations and their degrees of freedom.
NEES_DOF: dict[str, int] = {relation: len(rows) for relation, rows in _BLOCKS.items()}


def rank_target(quantity: str, statistic: str) -> float:
    """Return what a consistent estimate's ``statistic`` of ``quantity`` is, for rankings.

    0 for an error, ranked closest to zero best
    (:func:`robot_msgs.compare.statistics.rank_value`). A NEES is not an error: a
    consistent estimate's mean NEES is its degrees of freedom, and smaller means an
    overstated covariance (an estimator too unsure), not a better one. It is ranked by
    its mean's distance from them; no other statistic has a target that simple (the
    median of a chi-square with 3 degrees of freedom is 2.37).

    Raises
    ------
    ValidationError
        A NEES ranked by another statistic than its mean.

    Examples
    --------
    >>> rank_target("translation", "rms"), rank_target("nees_position", "mean")
    (0.0, 3.0)
    """
    dof = NEES_DOF.get(quantity)
    if dof is None:
        return 0.0
    if statistic != "mean":
        msg = (
            f"Expected statistic 'mean' to rank {quantity} (a consistent estimate's mean NEES "
            f"is its {counted(dof, 'degree of freedom', 'degrees of freedom')}), "
            f"got {statistic!r}"
        )
        raise ValidationError(msg)
    return float(dof)


def nees_values(
    reference: PoseTrajectory, estimate: PoseTrajectory, relation: str = "nees"
) -> Float64Array:
    """NEES of each matched pose, ``(N,)`` (dimensionless), as the module docstring defines.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Matched trajectories of equal length; ``estimate.covariance_6x6`` is needed.
    relation : {"nees", "nees_position", "nees_orientation", "nees_planar"}
        The whole pose (6 dof), one block (3 dof), or the planar pose ``x, y, yaw``
        (3 dof: rows and columns 0, 1 and 5 of the covariance; the yaw error is the
        rotation vector's ``z``, the rotation about the world's ``z`` axis).

    Raises
    ------
    ValidationError
        No covariance; covariances all zero on every pose (ROS's "unknown"); or a
        covariance block with a negative eigenvalue, or that cannot be inverted (the pose
        named).

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> ref = PoseTrajectory(stamps_s=[0.0], positions_xyz=[[0.0, 0, 0]],
    ...                      orientations_quat_xyzw=[[0.0, 0, 0, 1]])
    >>> est = ref.replace(positions_xyz=[[0.2, 0, 0]],
    ...                   covariance_6x6=np.diag([0.01, 0.01, 0.01, 1e-4, 1e-4, 1e-4])[None])
    >>> nees_values(ref, est).round(12)  # (0.2 m)² / 0.01 m²
    array([4.])
    >>> planar = est.replace(covariance_6x6=np.diag([0.01, 0.04, 0, 0, 0, 1e-4])[None])
    >>> nees_values(ref, planar, "nees_planar").round(12)  # x, y, yaw; z, roll, pitch unset
    array([4.])
    """
    cov = estimate.covariance_6x6
    if cov is None:
        msg = (
            "Expected an estimate with pose covariances for NEES, got none: read them from "
            "PoseWithCovarianceStamped or Odometry topics whose covariances are set (all-zero "
            "ones, ROS's 'unknown', as many odometry drivers publish, read as none), or give "
            "covariance_6x6"
        )
        raise ValidationError(msg)
    block = _BLOCKS[relation]
    if not cov.any():
        msg = (
            f"Expected pose covariances for NEES, got all-zero ones on every pose (ROS's "
            f"'unknown': the publisher leaves them unset; {len(cov)} poses)"
        )
        raise ValidationError(msg)
    error = np.empty((len(estimate), 6))
    error[:, :3] = estimate.positions_xyz - reference.positions_xyz
    turn = quat_xyzw_multiply(
        estimate.orientations_quat_xyzw, quat_xyzw_conjugate(reference.orientations_quat_xyzw)
    )
    # Log(R(P) R(Q)ᵀ): about the world's fixed axes
    error[:, 3:] = rotation_vector_from_quat_xyzw(turn)
    e = error[:, block]
    sigma = cov[:, block][:, :, block]
    smallest = np.linalg.eigvalsh(sigma)[:, 0]
    # WHY: symmetric with a non-negative diagonal is not enough; [[1, 2], [2, 1]] gave
    # negative NEES values, averaged into a verdict. Rounding may leave -1e-17 on a PSD one.
    negative = smallest < -1e-9 * np.abs(sigma).max(axis=(1, 2))
    if negative.any():
        row = int(np.flatnonzero(negative)[0])
        msg = (
            f"Expected positive semi-definite covariances for {relation}, got one with a "
            f"negative eigenvalue ({smallest[row]:.3g}) at matched pose {row}"
        )
        raise ValidationError(msg)
    try:
        solved = np.linalg.solve(sigma, e[:, :, None])[:, :, 0]
    except np.linalg.LinAlgError as err:
        row = int(np.argmin(smallest))
        msg = (
            f"Expected invertible covariances for {relation}, got a singular one at matched "
            f"pose {row} (smallest eigenvalue {smallest[row]:.3g})"
        )
        planar = _BLOCKS["nees_planar"]
        if (
            relation != "nees_planar"
            and (np.linalg.eigvalsh(cov[:, planar][:, :, planar])[:, 0] > 0).all()
        ):  # a planar estimator's (AMCL's): z, roll and pitch left zero
            msg += "; the x, y, yaw block is invertible on every pose: relation nees_planar"
        raise ValidationError(msg) from err
    out: Float64Array = np.einsum("ni,ni->n", e, solved)
    return out


def chi2_bounds(dof: int, n: int, confidence: float) -> tuple[float, float]:
    """Two-sided ``confidence`` bounds of the mean of ``n`` chi-square(``dof``) values.

    ``[χ²_{n dof}(α/2) / n, χ²_{n dof}(1 - α/2) / n]`` with ``α = 1 - confidence``; with
    ``n = 1`` the bounds of one value.

    Examples
    --------
    >>> [round(b, 4) for b in chi2_bounds(6, 1, 0.95)]
    [1.2373, 14.4494]
    """
    stats = require("scipy.stats", "science", feature="NEES chi-square bounds")
    alpha = 1.0 - confidence
    total = n * dof
    low = float(stats.chi2.ppf(alpha / 2.0, total)) / n
    high = float(stats.chi2.ppf(1.0 - alpha / 2.0, total)) / n
    return low, high


def nees_summary(
    values: Float64Array, relation: str, confidence: float
) -> tuple[dict[str, Value], dict[str, int], list[str]]:
    """Give the bounds, the count inside them and the verdict of NEES ``values``.

    Returns
    -------
    parameters : dict
        ``nees_dof``, ``nees_mean_bounds`` and ``nees_pose_bounds``.
    counts : dict
        ``nees_inside_pose_bounds``: poses whose NEES lies within the per-pose bounds.
    notes : list of str
        The mean against its bounds, and what it says.

    Examples
    --------
    >>> params, counts, notes = nees_summary(np.array([6.0, 5.0, 7.0]), "nees", 0.95)
    >>> params["nees_dof"], counts["nees_inside_pose_bounds"], notes[0][:40]
    (6, 3, 'mean NEES 6 over 3 poses (6 dof): within')
    """
    dof = NEES_DOF[relation]
    # An infinite NEES (an error against a variance of 1e-310) is the most overconfident
    # of all, and counts: left out, the mean of none was said to be consistent (a review).
    known = values[~np.isnan(values)]
    n = int(known.size)
    mean_low, mean_high = chi2_bounds(dof, max(n, 1), confidence)
    pose_low, pose_high = chi2_bounds(dof, 1, confidence)
    inside = int(np.count_nonzero((known >= pose_low) & (known <= pose_high)))
    with np.errstate(over="ignore"):  # a sum past float64: error_stats' mean, below
        mean = float(known.mean()) if n else math.nan
    if math.isinf(mean) and bool(np.isfinite(known).all()):
        # NEES of 1e306 each summed past float64 (a review): the mean of the values, as
        # error_stats keeps it finite, not inf.
        mean = error_stats(known).mean
    percent = f"{100 * confidence:g} %"
    bounds = f"the {percent} bounds {mean_low:.4g} .. {mean_high:.4g}"
    parameters: dict[str, Value] = {
        "nees_dof": dof,
        "nees_mean_bounds": (mean_low, mean_high),
        "nees_pose_bounds": (pose_low, pose_high),
    }
    if not n:
        missing = f"no pose has a NEES ({values.size} not a number): nothing to judge the filter by"
        return parameters, {"nees_inside_pose_bounds": 0}, [missing]
    if mean > mean_high:
        verdict = f"above {bounds}: inconsistent, the covariances are too small (overconfident)"
    elif mean < mean_low:
        verdict = f"below {bounds}: inconsistent, the covariances are too large (pessimistic)"
    else:
        verdict = f"within {bounds} of a consistent filter"
    notes = [
        (
            f"mean NEES {mean:.4g} over {counted(n, 'pose')} ({dof} dof): {verdict}; "
            f"{counted(inside, 'pose')} ({100 * inside / max(n, 1):.1f} %) within the per-pose "
            f"{percent} "
            f"bounds {pose_low:.4g} .. {pose_high:.4g}"
        )
    ]
    return parameters, {"nees_inside_pose_bounds": inside}, notes
