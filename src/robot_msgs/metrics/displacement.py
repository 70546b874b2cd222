"""Displacement errors of predicted against true trajectories: ADE and FDE.

The trajectory-prediction standard (Alahi et al., "Social LSTM", CVPR 2016; Gupta et al.,
"Social GAN", CVPR 2018): points of the prediction and the truth are paired by index, so
both must share the time base. For timed trajectories sampled at different times, associate
them first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import (
    StreamingMean,
    array_namespace,
    as_result,
    check_points,
    norms,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from torch import Tensor

    from robot_msgs.typing import Float64Array

__all__ = [
    "AverageDisplacementError",
    "FinalDisplacementError",
    "average_displacement_error",
    "final_displacement_error",
]


def _check_pair(prediction: Any, target: Any) -> tuple[Any, Any]:
    pred = check_points("prediction", prediction, min_points=1)
    true = check_points("target", target, min_points=1)
    if pred.shape != true.shape:
        shapes = f"{tuple(pred.shape)}, got {tuple(true.shape)}"
        msg = f"Expected `target` of the shape of `prediction` {shapes}"
        raise ValidationError(msg)
    return pred, true


@overload
def average_displacement_error(prediction: Tensor, target: Tensor) -> Tensor: ...
@overload
def average_displacement_error(prediction: ArrayLike, target: ArrayLike) -> Float64Array: ...
def average_displacement_error(prediction: Any, target: Any) -> Any:
    r"""Mean Euclidean distance between paired points, per trajectory, in metres.

    .. math:: \mathrm{ADE} = \frac{1}{L} \sum_{i=1}^{L} \lVert \hat p_i - p_i \rVert_2

    Parameters
    ----------
    prediction, target : array_like, shape (..., L, D), float64, metres
        Same shape; points paired by index.

    Returns
    -------
    ndarray, shape (...), float64, metres

    Examples
    --------
    >>> average_displacement_error([[0.0, 0.0], [1.0, 1.0]], [[0.0, 0.0], [1.0, 0.0]])
    array(0.5)
    """
    pred, true = _check_pair(prediction, target)
    return as_result(array_namespace(pred).mean(norms(pred - true), axis=-1))


@overload
def final_displacement_error(prediction: Tensor, target: Tensor) -> Tensor: ...
@overload
def final_displacement_error(prediction: ArrayLike, target: ArrayLike) -> Float64Array: ...
def final_displacement_error(prediction: Any, target: Any) -> Any:
    r"""Euclidean distance between the last points, per trajectory, in metres.

    .. math:: \mathrm{FDE} = \lVert \hat p_L - p_L \rVert_2

    Examples
    --------
    >>> final_displacement_error([[0.0, 0.0], [3.0, 4.0]], [[0.0, 0.0], [0.0, 0.0]])
    array(5.)
    """
    pred, true = _check_pair(prediction, target)
    return as_result(norms(pred[..., -1, :] - true[..., -1, :]))


class AverageDisplacementError(StreamingMean):
    """Mean ADE over every predicted trajectory seen (see :func:`average_displacement_error`).

    Each trajectory weighs the same, whatever its length; with one horizon for all, this
    equals the mean over every predicted point.

    Examples
    --------
    >>> metric = AverageDisplacementError()
    >>> metric.update([[0.0, 0.0], [1.0, 1.0]], [[0.0, 0.0], [1.0, 0.0]])
    >>> metric.compute()
    0.5
    """

    def update(self, prediction: Any, target: Any) -> None:
        """Record predictions and targets of one shape ``(..., L, D)``."""
        self._accumulate(average_displacement_error(prediction, target))


class FinalDisplacementError(StreamingMean):
    """Mean FDE over every predicted trajectory seen (see :func:`final_displacement_error`).

    Examples
    --------
    >>> metric = FinalDisplacementError()
    >>> metric.update([[[0.0, 0.0], [3.0, 4.0]]], [[[0.0, 0.0], [0.0, 0.0]]])
    >>> metric.compute()
    5.0
    """

    def update(self, prediction: Any, target: Any) -> None:
        """Record predictions and targets of one shape ``(..., L, D)``."""
        self._accumulate(final_displacement_error(prediction, target))
