"""Shape of a path from its points alone: ``PathSmoothness``, ``PathLength``, ``Straightness``.

All three take trajectories of shape ``(..., L, D)``: points ordered in time along axis
-2, any number of leading batch axes (``(L, D)``, ``(B, L, D)``, ``(B, T, L, D)``), any
dimension ``D``; every leading index is one trajectory and ``compute()`` is the mean over
trajectories. Coordinates are in metres (any consistent length unit works: smoothness
and straightness are scale-free).

WHY segment vectors first: ``(p[i+2] - p[i+1]) - (p[i+1] - p[i])`` subtracts neighbouring
points before anything else, which is exact for nearby float64 values (Sterbenz), so a
turn of 0.01 m steps at coordinates near 1e8 m keeps about 7 significant digits, where
``p[i+2] - 2 p[i+1] + p[i]`` loses two more and float32 loses everything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import StreamingMean, check_points, norms

if TYPE_CHECKING:
    from robot_msgs.msg import Scalar
    from robot_msgs.typing import Float64Array

__all__ = [
    "PathLength",
    "PathSmoothness",
    "Straightness",
    "path_length",
    "path_smoothness",
    "straightness",
]

Normalization = Literal["path_length", "points"]
_NORMALIZATIONS = ("path_length", "points")


def _check_normalization(normalization: str) -> Normalization:
    if normalization not in _NORMALIZATIONS:
        msg = f"Expected `normalization` in {_NORMALIZATIONS}, got {normalization!r}"
        raise ValidationError(msg)
    return normalization  # type: ignore[return-value]


def _ratio_or(num: Float64Array, den: Float64Array, fill: float) -> Float64Array:
    """``num / den`` where ``den > 0``, ``fill`` where ``den == 0``."""
    moving = den > 0
    out = np.divide(num, den, out=np.full(np.shape(num), fill), where=moving)
    return np.asarray(out, dtype=np.float64)


# --------------------------------------------------------------------------- kernels


def _path_smoothness_kernel(points: Float64Array, normalization: Normalization) -> Float64Array:
    steps = points[..., 1:, :] - points[..., :-1, :]
    turns = steps[..., 1:, :] - steps[..., :-1, :]
    total_change = norms(turns).sum(axis=-1)
    if normalization == "points":
        return np.asarray(total_change / (points.shape[-2] - 2))
    return _ratio_or(total_change, norms(steps).sum(axis=-1), 0.0)


def _path_length_kernel(points: Float64Array) -> Float64Array:
    return np.asarray(norms(points[..., 1:, :] - points[..., :-1, :]).sum(axis=-1))


def _straightness_kernel(points: Float64Array) -> Float64Array:
    net = norms(points[..., -1, :] - points[..., 0, :])
    return _ratio_or(net, _path_length_kernel(points), 1.0)


# --------------------------------------------------------------------------- functional twins


def path_smoothness(
    trajectory: Any, *, normalization: Normalization = "path_length"
) -> Float64Array:
    r"""Path smoothness of each trajectory: summed change of the step vectors over path length.

    .. math::

        \mathrm{PS} = \frac{1}{\mathrm{PL}} \sum_{i=1}^{L-2}
            \left\lVert (p_{i+2} - p_{i+1}) - (p_{i+1} - p_i) \right\rVert_2,
        \qquad \mathrm{PL} = \sum_{i=1}^{L-1} \lVert p_{i+1} - p_i \rVert_2

    as robometric-frame's documentation defines it (after Dobiš et al., "Evaluation
    criteria for trajectories of robotic arms", *Robotics* 11:29, 2022; Guillén Ruiz et al.,
    "Measuring smoothness as a factor for efficient and socially accepted robot motion",
    *Sensors* 20:6822, 2020). 0 for a straight line at constant speed; lower is smoother.

    Parameters
    ----------
    trajectory : array_like, shape (..., L, D), float64, metres
        Points ordered in time along axis -2, ``L >= 3``.
    normalization : {"path_length", "points"}
        ``"path_length"`` (default) divides by PL as documented, which makes PS
        scale-free; ``"points"`` divides by ``L - 2`` instead, as robometric-frame 0.3.0's
        code does (then PS is in metres and grows with the step size).

    Returns
    -------
    ndarray, shape (...), float64
        One value per trajectory (a 0-d array for one ``(L, D)`` trajectory). A path that
        never moves (PL = 0) has no change of direction and gets 0 by definition.

    Raises
    ------
    ValidationError
        A shape other than ``(..., L, D)``, ``L < 3``, or a non-finite value (the message
        names its index).

    Examples
    --------
    >>> turn = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]]
    >>> float(path_smoothness(turn))  # √2 / 3
    0.47140452079103173
    >>> float(path_smoothness(turn, normalization="points"))  # √2 / 2
    0.7071067811865476
    """
    normalization = _check_normalization(normalization)
    points = check_points("trajectory", trajectory, min_points=3)
    return _path_smoothness_kernel(points, normalization)


def path_length(trajectory: Any) -> Float64Array:
    r"""Length of each polyline, :math:`\mathrm{PL} = \sum_i \lVert p_{i+1} - p_i \rVert_2`.

    Parameters
    ----------
    trajectory : array_like, shape (..., L, D), float64, metres
        Points ordered in time along axis -2, ``L >= 2``.

    Returns
    -------
    ndarray, shape (...), float64, metres

    Examples
    --------
    >>> path_length([[[0.0, 0.0], [3.0, 4.0]], [[0.0, 0.0], [0.0, 2.0]]])
    array([5., 2.])
    """
    return _path_length_kernel(check_points("trajectory", trajectory, min_points=2))


def straightness(trajectory: Any) -> Float64Array:
    r"""Straightness index of each trajectory: net displacement over path length.

    .. math:: S = \frac{\lVert p_L - p_1 \rVert_2}{\mathrm{PL}} \in [0, 1]

    (Batschelet, *Circular Statistics in Biology*, 1981; Benhamou, "How to reliably
    estimate the tortuosity of an animal's path", *J. Theor. Biol.* 229:209, 2004).
    1 for a straight path, towards 0 for a tortuous or returning one.

    Parameters
    ----------
    trajectory : array_like, shape (..., L, D), float64, metres
        Points ordered in time along axis -2, ``L >= 2``.

    Returns
    -------
    ndarray, shape (...), float64
        A path that never moves (PL = 0) made no detour and gets 1 by definition.

    Examples
    --------
    >>> float(straightness([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]))  # √2 / 2
    0.7071067811865476
    """
    return _straightness_kernel(check_points("trajectory", trajectory, min_points=2))


# --------------------------------------------------------------------------- streaming classes


class PathSmoothness(StreamingMean):
    r"""Mean path smoothness over every trajectory seen (see :func:`path_smoothness`).

    .. math::

        \overline{\mathrm{PS}} = \frac{1}{N} \sum_{n=1}^{N} \frac{1}{\mathrm{PL}_n}
            \sum_{i=1}^{L-2} \lVert (p_{i+2} - p_{i+1}) - (p_{i+1} - p_i) \rVert_2

    Parameters
    ----------
    normalization : {"path_length", "points"}
        Divide each sum by the path length (default, as documented by robometric-frame)
        or by ``L - 2`` (robometric-frame 0.3.0's code).

    Examples
    --------
    >>> metric = PathSmoothness()
    >>> metric.update([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])  # straight
    >>> metric.compute()
    0.0
    >>> metric.update([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]])  # one turn
    >>> metric.compute()  # (0 + √2/3) / 2
    0.23570226039551587
    """

    def __init__(self, *, normalization: Normalization = "path_length") -> None:
        super().__init__()
        self.normalization: Normalization = _check_normalization(normalization)

    def settings(self) -> dict[str, Scalar]:
        """``{"normalization": ...}``."""
        return {"normalization": self.normalization}

    def update(self, trajectory: Any) -> None:
        """Record trajectories of shape ``(..., L, D)``, ``L >= 3``."""
        points = check_points("trajectory", trajectory, min_points=3)
        self._accumulate(_path_smoothness_kernel(points, self.normalization))


class PathLength(StreamingMean):
    """Mean path length in metres over every trajectory seen (see :func:`path_length`).

    Examples
    --------
    >>> metric = PathLength()
    >>> metric.update([[[0.0, 0.0], [3.0, 4.0]], [[0.0, 0.0], [0.0, 1.0]]])
    >>> metric.compute()
    3.0
    """

    def update(self, trajectory: Any) -> None:
        """Record trajectories of shape ``(..., L, D)``, ``L >= 2``."""
        self._accumulate(path_length(trajectory))


class Straightness(StreamingMean):
    """Mean straightness index over every trajectory seen (see :func:`straightness`).

    Examples
    --------
    >>> metric = Straightness()
    >>> metric.update([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    >>> metric.update([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]])  # there and back
    >>> metric.compute()
    0.5
    """

    def update(self, trajectory: Any) -> None:
        """Record trajectories of shape ``(..., L, D)``, ``L >= 2``."""
        self._accumulate(straightness(trajectory))
