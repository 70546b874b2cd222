"""How much and how unevenly a path turns: ``Curvature`` and ``CurvatureChange``.

Angles are always wrapped: a heading going from 3.14 rad to -3.14 rad turned by
2π - 6.28 ≈ 0.0032 rad, not 6.28 rad (robometric-frame 0.3.0's ``CurvatureChange``
subtracts raw headings and counts the 6.28).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import (
    StreamingMean,
    array_namespace,
    as_float_array,
    as_result,
    check_points,
    check_samples,
    first_index,
    norms,
    ratio_or,
    running_max,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from torch import Tensor

    from robot_msgs.typing import Float64Array

__all__ = [
    "Curvature",
    "CurvatureChange",
    "curvature",
    "curvature_change",
    "turning_angles",
    "wrap_angle",
]


@overload
def wrap_angle(angles: Tensor) -> Tensor: ...
@overload
def wrap_angle(angles: ArrayLike) -> Float64Array: ...
def wrap_angle(angles: Any) -> Any:
    """Angles wrapped into ``[-π, π)`` rad; an infinite angle has no direction: NaN.

    Examples
    --------
    >>> round(float(wrap_angle(-3.14 - 3.14)), 10)  # heading 3.14 -> -3.14
    0.0031853072
    """
    x = as_float_array("angles", angles)
    xp = array_namespace(x)
    with np.errstate(invalid="ignore"):  # inf: NaN, as a tensor gives, not a warning
        wrapped = xp.remainder(x + math.pi, 2 * math.pi) - math.pi
    # WHY: remainder of a tiny negative rounds up to the divisor itself (-π - 1 ulp gave
    # +π); π is the open end, so it goes to -π, where wrap_angle(π) puts it.
    return as_result(xp.where(wrapped >= math.pi, wrapped - 2 * math.pi, wrapped))


# --------------------------------------------------------------------------- kernels


def _turning_angles_kernel(points: Any) -> tuple[Any, Any]:
    """Unsigned turning angle at each interior point ``(..., L-2)`` rad, and path lengths.

    Zero-length steps are skipped: the turn at point ``i`` is measured from the last step
    before it that moved, so a stop followed by a turn still counts the turn once.
    """
    xp = array_namespace(points)
    steps = points[..., 1:, :] - points[..., :-1, :]
    lengths = norms(steps)
    moving = lengths > 0
    units = steps / xp.where(moving, lengths, 1.0)[..., None]
    index = xp.where(moving, xp.arange(steps.shape[-2], device=points.device), -1)
    last_moving = running_max(index)[..., :-1]  # before step i+1
    previous = xp.take_along_axis(
        units, xp.where(last_moving > 0, last_moving, 0)[..., None], axis=-2
    )
    current = units[..., 1:, :]
    # Kahan's angle between unit vectors: accurate at 0 and π, in any dimension.
    angle = 2.0 * xp.atan2(norms(current - previous), norms(current + previous))
    counted = moving[..., 1:] & (last_moving >= 0)
    return xp.where(counted, angle, 0.0), xp.sum(lengths, axis=-1)


def _curvature_kernel(points: Any) -> Any:
    angles, length = _turning_angles_kernel(points)
    return as_result(ratio_or(array_namespace(angles).sum(angles, axis=-1), length, 0.0))


def _curvature_change_kernel(points: Any, headings: Any) -> Any:
    xp = array_namespace(points)
    lengths = norms(points[..., 1:, :] - points[..., :-1, :])
    dtheta = wrap_angle(headings[..., 1:] - headings[..., :-1])
    turning_in_place = (lengths == 0) & (dtheta != 0)
    if bool(xp.any(turning_in_place)):
        index = first_index(turning_in_place)
        msg = (
            "Expected the position to move wherever the heading changes (turning in place "
            f"has unbounded curvature), got a zero-length step at `positions` index {index} "
            f"-> next point with heading change {float(dtheta[index])!r} rad"
        )
        raise ValidationError(msg)
    kappa = ratio_or(dtheta, lengths, 0.0)
    return as_result(xp.mean(xp.abs(kappa[..., 1:] - kappa[..., :-1]), axis=-1))


# --------------------------------------------------------------------------- functional twins


@overload
def turning_angles(trajectory: Tensor) -> Tensor: ...
@overload
def turning_angles(trajectory: ArrayLike) -> Float64Array: ...
def turning_angles(trajectory: Any) -> Any:
    r"""Unsigned turning angle at each interior point of each trajectory, in rad.

    .. math::

        \theta_i = \angle(p_{i+1} - p_i,\; p_{i+2} - p_{i+1})
            = 2 \operatorname{atan2}(\lVert \hat u - \hat v \rVert, \lVert \hat u + \hat v \rVert)
            \in [0, \pi]

    (Kahan's formula, exact near 0 and π, any dimension). Steps of zero length are
    skipped: the turn is measured from the last step that moved.

    Parameters
    ----------
    trajectory : array_like, shape (..., L, D), float64, metres
        ``L >= 3``.

    Returns
    -------
    ndarray, shape (..., L - 2), float64, rad

    Examples
    --------
    >>> turning_angles([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 1.0]])  # stop, then turn
    array([0.        , 1.57079633])
    """
    return as_result(
        _turning_angles_kernel(check_points("trajectory", trajectory, min_points=3))[0]
    )


@overload
def curvature(trajectory: Tensor) -> Tensor: ...
@overload
def curvature(trajectory: ArrayLike) -> Float64Array: ...
def curvature(trajectory: Any) -> Any:
    r"""Mean absolute curvature of each trajectory: total turning over path length, in rad/m.

    .. math:: \bar\kappa = \frac{\sum_{i=1}^{L-2} \theta_i}{\mathrm{PL}}

    the discrete form of :math:`\frac{1}{\mathrm{PL}} \int |\kappa(s)|\, ds` for a polyline,
    whose curvature is concentrated at its vertices (e.g. Sullivan, "Curves of finite total
    curvature", 2008). A circle of radius R gives about 1/R.

    Parameters
    ----------
    trajectory : array_like, shape (..., L, D), float64, metres
        ``L >= 3``.

    Returns
    -------
    ndarray, shape (...), float64, rad/m
        A path that never moves gets 0 by definition.

    Examples
    --------
    >>> float(curvature([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]]))  # (π/2) / 3
    0.5235987755982988
    """
    return _curvature_kernel(check_points("trajectory", trajectory, min_points=3))


@overload
def curvature_change(positions: Tensor, headings: Tensor) -> Tensor: ...
@overload
def curvature_change(positions: ArrayLike, headings: ArrayLike) -> Float64Array: ...
def curvature_change(positions: Any, headings: Any) -> Any:
    r"""Mean absolute change of curvature between consecutive steps, headings wrapped.

    .. math::

        \kappa_i = \frac{\operatorname{wrap}(\theta_{i+1} - \theta_i)}
            {\lVert p_{i+1} - p_i \rVert_2}, \qquad
        \mathrm{CC} = \frac{1}{L-2} \sum_{i=1}^{L-2} \lvert \kappa_{i+1} - \kappa_i \rvert

    with :math:`\operatorname{wrap}` into :math:`[-\pi, \pi)`: robometric-frame 0.3.0's
    definition (after Guillén Ruiz et al., *Sensors* 20:6822, 2020) with the heading
    difference wrapped, which it omits.

    Parameters
    ----------
    positions : array_like, shape (..., L, D), float64, metres
        ``L >= 3``.
    headings : array_like, shape (..., L), float64, rad
        Heading (yaw) at each point, any branch: only wrapped differences are used.

    Returns
    -------
    ndarray, shape (...), float64, rad/m per step

    Raises
    ------
    ValidationError
        Mismatched shapes, non-finite values, or a heading change over a zero-length step
        (turning in place: unbounded curvature), naming its index.

    Examples
    --------
    >>> xy = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]
    >>> round(float(curvature_change(xy, [3.14, -3.14, -3.14])), 10)  # 2π - 6.28, not 6.28
    0.0031853072
    """
    points = check_points("positions", positions, min_points=3)
    theta = check_samples("headings", headings, min_samples=3)
    if tuple(theta.shape) != tuple(points.shape[:-1]):
        msg = (
            f"Expected `headings` of shape {tuple(points.shape[:-1])} (the shape of "
            f"`positions` without D), got shape {tuple(theta.shape)}"
        )
        raise ValidationError(msg)
    return _curvature_change_kernel(points, theta)


# --------------------------------------------------------------------------- streaming classes


class Curvature(StreamingMean):
    """Mean over trajectories of their mean absolute curvature (see :func:`curvature`).

    Examples
    --------
    >>> metric = Curvature()
    >>> metric.update([[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]])
    >>> metric.compute()  # (0 + (π/2) / 2) / 2
    0.39269908169872414
    """

    def update(self, trajectory: Any) -> None:
        """Record trajectories of shape ``(..., L, D)``, ``L >= 3``."""
        self._accumulate(curvature(trajectory))


class CurvatureChange(StreamingMean):
    """Mean over trajectories of the curvature change (see :func:`curvature_change`).

    Examples
    --------
    >>> metric = CurvatureChange()
    >>> metric.update([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], [0.0, 0.5, 0.5])
    >>> metric.compute()  # |0 - 0.5| / 1
    0.5
    """

    def update(self, positions: Any, headings: Any) -> None:
        """Record positions ``(..., L, D)`` and headings ``(..., L)`` rad, ``L >= 3``."""
        self._accumulate(curvature_change(positions, headings))
