"""Embodied-navigation outcomes: ``SuccessRate`` and ``SPL`` (Anderson et al. 2018).

Anderson, Chang, Chaplot, Dosovitskiy, Gupta, Koltun, Kosecka, Malik, Mottaghi, Savva &
Zamir, "On Evaluation of Embodied Navigation Agents", arXiv:1807.06757, 2018 (section 4).
One item is one episode.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import (
    StreamingMean,
    array_namespace,
    as_float_array,
    as_result,
    at_index,
    check_finite,
    first_index,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from torch import Tensor

    from robot_msgs.typing import Float64Array

__all__ = ["SPL", "SuccessRate", "spl", "success_rate"]


def _check_success(value: Any) -> Any:
    arr = as_float_array("success", value)
    bad = (arr != 0) & (arr != 1)
    if bool(array_namespace(arr).any(bad)):
        index = first_index(bad)
        msg = f"Expected `success` as booleans or 0/1, got {float(arr[index])!r}{at_index(index)}"
        raise ValidationError(msg)
    return arr


def _check_lengths(name: str, value: Any, shape: tuple[int, ...], *, positive: bool) -> Any:
    arr = as_float_array(name, value)
    if arr.shape != shape:
        msg = f"Expected `{name}` of the shape of `success` {shape}, got {tuple(arr.shape)}"
        raise ValidationError(msg)
    check_finite(name, arr)
    bad = arr <= 0 if positive else arr < 0
    if bool(array_namespace(arr).any(bad)):
        index = first_index(bad)
        want = "> 0" if positive else ">= 0"
        msg = f"Expected `{name}` {want} m, got {float(arr[index])!r}{at_index(index)}"
        raise ValidationError(msg)
    return arr


@overload
def success_rate(success: Tensor) -> Tensor: ...
@overload
def success_rate(success: ArrayLike) -> Float64Array: ...
def success_rate(success: Any) -> Any:
    """Each episode's success as 0.0 or 1.0 (the rate is their mean).

    Parameters
    ----------
    success : array_like of bool or 0/1, shape (...)

    Examples
    --------
    >>> success_rate([True, False, True]).mean()
    np.float64(0.6666666666666666)
    """
    return _check_success(success)


@overload
def spl(success: Tensor, shortest_path_length: Tensor, path_length: Tensor) -> Tensor: ...
@overload
def spl(
    success: ArrayLike, shortest_path_length: ArrayLike, path_length: ArrayLike
) -> Float64Array: ...
def spl(success: Any, shortest_path_length: Any, path_length: Any) -> Any:
    r"""Success weighted by (normalised inverse) path length, per episode.

    .. math:: \mathrm{SPL} = \frac{1}{N} \sum_{i=1}^{N} S_i \frac{\ell_i}{\max(p_i, \ell_i)}

    (Anderson et al. 2018, eq. 1); this returns the summands.

    Parameters
    ----------
    success : array_like of bool or 0/1, shape (...)
        :math:`S_i`.
    shortest_path_length : array_like, shape (...), float64, metres
        :math:`\ell_i > 0`, the shortest-path distance from start to goal.
    path_length : array_like, shape (...), float64, metres
        :math:`p_i \ge 0`, the length of the path the agent took.

    Examples
    --------
    >>> spl([1, 1, 0], [10.0, 10.0, 10.0], [10.0, 20.0, 5.0])
    array([1. , 0.5, 0. ])
    """
    s = _check_success(success)
    shape = tuple(s.shape)
    shortest = _check_lengths("shortest_path_length", shortest_path_length, shape, positive=True)
    taken = _check_lengths("path_length", path_length, shape, positive=False)
    return as_result(s * shortest / array_namespace(s).maximum(taken, shortest))


class SuccessRate(StreamingMean):
    """Share of successful episodes among every episode seen.

    Examples
    --------
    >>> metric = SuccessRate()
    >>> metric.update([True, False])
    >>> metric.update(True)
    >>> round(metric.compute(), 4)
    0.6667
    """

    def update(self, success: Any) -> None:
        """Record episodes' success flags, shape ``(...)``."""
        self._accumulate(success_rate(success))


class SPL(StreamingMean):
    """Success weighted by path length over every episode seen (see :func:`spl`).

    Examples
    --------
    >>> metric = SPL()
    >>> metric.update([1, 1, 0], [10.0, 10.0, 10.0], [10.0, 20.0, 5.0])
    >>> metric.compute()
    0.5
    """

    def update(self, success: Any, shortest_path_length: Any, path_length: Any) -> None:
        """Record episodes: success flags, shortest and taken path lengths, shape ``(...)``."""
        self._accumulate(spl(success, shortest_path_length, path_length))
