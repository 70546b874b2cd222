"""Path fidelity by dynamic time warping: ``DTW``, ``NDTW`` and ``SDTW`` (Ilharco et al. 2019).

Ilharco, Jain, Ku, Ie & Baldridge, "General Evaluation for Instruction Conditioned
Navigation using Dynamic Time Warping", NeurIPS ViGIL workshop 2019 (arXiv:1907.05446).
The reference implementation (google-research ``r4r/dtw.py``) measures distances on the
navigation graph; here points live in ``R^D`` and ``distance`` picks the norm
(``"cityblock"`` equals shortest paths on a unit grid graph).

WHY a wavefront: the DTW recursion depends on the left, lower and diagonal cells, so all
cells of one anti-diagonal are independent; the loop runs over the ``N + M - 1``
anti-diagonals, each one vectorised over its cells and over the batch, in ``O(N)`` memory
instead of the ``N x M`` matrix.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal, get_args, overload

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import (
    StreamingMean,
    array_namespace,
    as_result,
    check_choice,
    check_points,
    check_positive,
    norms,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from torch import Tensor

    from robot_msgs.typing import Float64Array

__all__ = ["DTW", "NDTW", "SDTW", "dtw", "ndtw", "sdtw"]

Distance = Literal["euclidean", "cityblock"]
_DISTANCES: tuple[Distance, ...] = get_args(Distance)


def _point_distance(diff: Any, distance: Distance) -> Any:
    if distance == "cityblock":
        xp = array_namespace(diff)
        return xp.sum(xp.abs(diff), axis=-1)
    return norms(diff)


def _check_pair(prediction: Any, reference: Any) -> tuple[Any, Any]:
    pred = check_points("prediction", prediction, min_points=1)
    ref = check_points("reference", reference, min_points=1)
    if pred.shape[:-2] != ref.shape[:-2] or pred.shape[-1] != ref.shape[-1]:
        want = (*pred.shape[:-2], "M", pred.shape[-1])
        msg = (
            f"Expected `reference` of shape {want} to match `prediction` {tuple(pred.shape)} "
            f"(same batch axes and D), got {tuple(ref.shape)}"
        )
        raise ValidationError(msg)
    return pred, ref


def _dtw_kernel(pred: Any, ref: Any, distance: Distance) -> Any:
    xp = array_namespace(pred)
    batch, n, m, d = tuple(pred.shape[:-2]), pred.shape[-2], ref.shape[-2], pred.shape[-1]
    p = pred.reshape(-1, n, d)
    r = ref.reshape(-1, m, d)
    if n > m:
        # The wavefront is indexed by the first path's points: a fresh array of n + 1
        # cells per anti-diagonal made a long prediction against a short reference
        # O(n (n + m)), 125 s for 2e5 x 10 points where 2000 x 2000 took 0.6 s (a
        # review). DTW is symmetric (a symmetric point distance, the same three cells
        # in each minimum), so the shorter path indexes it: the same numbers, bit for bit.
        p, r, n, m = r, p, m, n
    rows = p.shape[0]

    # Anti-diagonal k holds the cells (i, k - i); arrays are indexed by i in 0..n.
    def infinite() -> Any:
        return xp.full((rows, n + 1), math.inf, dtype=xp.float64, device=pred.device)

    before_last = infinite()
    before_last[:, 0] = 0.0  # D[0, 0]
    last = infinite()  # D[0, 1], D[1, 0]
    for k in range(2, n + m + 1):
        i = xp.arange(max(1, k - m), min(n, k - 1) + 1, device=pred.device)
        cost = _point_distance(p[:, i - 1, :] - r[:, k - i - 1, :], distance)
        best = xp.minimum(xp.minimum(last[:, i - 1], last[:, i]), before_last[:, i - 1])
        current = infinite()
        current[:, i] = cost + best
        before_last, last = last, current
    return as_result(last[:, n].reshape(batch))


def _ndtw_kernel(pred: Any, ref: Any, threshold: float, distance: Distance) -> Any:
    scale = ref.shape[-2] * threshold
    distance_dtw = _dtw_kernel(pred, ref, distance)
    # A DTW past float64 times the threshold: its nDTW is exp(-inf) = 0, as on a tensor,
    # not an 'overflow' warning (threshold=1e-300 m; a review).
    with np.errstate(over="ignore"):
        return as_result(array_namespace(pred).exp(-distance_dtw / scale))


def _sdtw_kernel(pred: Any, ref: Any, threshold: float, distance: Distance) -> Any:
    success = _point_distance(pred[..., -1, :] - ref[..., -1, :], distance) <= threshold
    ndtw = _ndtw_kernel(pred, ref, threshold, distance)
    return as_result(array_namespace(pred).where(success, ndtw, 0.0))


@overload
def dtw(prediction: Tensor, reference: Tensor, *, distance: Distance = "euclidean") -> Tensor: ...
@overload
def dtw(
    prediction: ArrayLike, reference: ArrayLike, *, distance: Distance = "euclidean"
) -> Float64Array: ...
def dtw(prediction: Any, reference: Any, *, distance: Distance = "euclidean") -> Any:
    r"""Dynamic time warping distance between each predicted and reference path.

    .. math::

        D(i, j) = d(q_i, r_j) + \min\{D(i-1, j),\, D(i, j-1),\, D(i-1, j-1)\},
        \qquad \mathrm{DTW}(Q, R) = D(|Q|, |R|)

    with :math:`D(0, 0) = 0` and :math:`D(i, 0) = D(0, j) = \infty` otherwise (Ilharco et al.
    2019, eq. 1; Sakoe & Chiba 1978).

    Parameters
    ----------
    prediction : array_like, shape (..., N, D), float64, metres
    reference : array_like, shape (..., M, D), float64, metres
        Same batch axes and ``D``; ``N`` and ``M`` may differ.
    distance : {"euclidean", "cityblock"}
        The point distance :math:`d`.

    Returns
    -------
    ndarray, shape (...), float64, metres

    Examples
    --------
    >>> float(dtw([[0.0], [1.0], [2.0]], [[0.0], [2.0]]))  # 0 + 1 + 0
    1.0
    """
    pred, ref = _check_pair(prediction, reference)
    return _dtw_kernel(pred, ref, check_choice("distance", distance, _DISTANCES))


@overload
def ndtw(
    prediction: Tensor,
    reference: Tensor,
    *,
    threshold: float = 3.0,
    distance: Distance = "euclidean",
) -> Tensor: ...
@overload
def ndtw(
    prediction: ArrayLike,
    reference: ArrayLike,
    *,
    threshold: float = 3.0,
    distance: Distance = "euclidean",
) -> Float64Array: ...
def ndtw(
    prediction: Any,
    reference: Any,
    *,
    threshold: float = 3.0,
    distance: Distance = "euclidean",
) -> Any:
    r"""Normalised DTW in ``(0, 1]``: 1 when the prediction follows the reference exactly.

    .. math:: \mathrm{nDTW}(Q, R) = \exp\left(-\frac{\mathrm{DTW}(Q, R)}{|R| \, d_{th}}\right)

    (Ilharco et al. 2019, eq. 2). ``threshold`` is :math:`d_{th}` in metres, 3 m in R2R.

    Examples
    --------
    >>> grid = dict(distance="cityblock", threshold=3.0)  # r4r/dtw.py's doctest
    >>> float(ndtw([[0, 0], [1, 0], [2, 0], [3, 0]], [[0, 0], [1, 0], [2, 1], [3, 2]], **grid))
    0.7788007830714049
    """
    pred, ref = _check_pair(prediction, reference)
    limit = check_positive("threshold", threshold)
    return _ndtw_kernel(pred, ref, limit, check_choice("distance", distance, _DISTANCES))


@overload
def sdtw(
    prediction: Tensor,
    reference: Tensor,
    *,
    threshold: float = 3.0,
    distance: Distance = "euclidean",
) -> Tensor: ...
@overload
def sdtw(
    prediction: ArrayLike,
    reference: ArrayLike,
    *,
    threshold: float = 3.0,
    distance: Distance = "euclidean",
) -> Float64Array: ...
def sdtw(
    prediction: Any,
    reference: Any,
    *,
    threshold: float = 3.0,
    distance: Distance = "euclidean",
) -> Any:
    r"""Success-weighted nDTW: nDTW where the prediction ends within ``threshold``, else 0.

    .. math:: \mathrm{SDTW}(Q, R) = \mathbb{1}[d(q_{|Q|}, r_{|R|}) \le d_{th}]\,\mathrm{nDTW}(Q, R)

    (Ilharco et al. 2019, eq. 3).

    Examples
    --------
    >>> grid = dict(distance="cityblock", threshold=3.0)
    >>> float(sdtw([[0, 0], [1, 0]], [[0, 0], [1, 0], [2, 1], [3, 2]], **grid))  # ends 4 away
    0.0
    """
    pred, ref = _check_pair(prediction, reference)
    limit = check_positive("threshold", threshold)
    return _sdtw_kernel(pred, ref, limit, check_choice("distance", distance, _DISTANCES))


class DTW(StreamingMean):
    """Mean DTW distance over every (prediction, reference) pair seen (see :func:`dtw`).

    Examples
    --------
    >>> metric = DTW()
    >>> metric.update([[0.0], [1.0], [2.0]], [[0.0], [2.0]])
    >>> metric.compute()
    1.0
    """

    def __init__(self, *, distance: Distance = "euclidean") -> None:
        super().__init__()
        self.distance = check_choice("distance", distance, _DISTANCES)

    def update(self, prediction: Any, reference: Any) -> None:
        """Record pairs ``(..., N, D)`` and ``(..., M, D)``."""
        self._accumulate(dtw(prediction, reference, distance=self.distance))


class NDTW(DTW):
    """Mean nDTW over every pair seen (see :func:`ndtw`).

    Examples
    --------
    >>> metric = NDTW(threshold=3.0)
    >>> metric.update([[0.0, 0.0], [1.0, 0.0]], [[0.0, 0.0], [1.0, 0.0]])
    >>> metric.compute()
    1.0
    """

    _kernel = staticmethod(_ndtw_kernel)  # SDTW's is _sdtw_kernel: the one difference

    def __init__(self, *, threshold: float = 3.0, distance: Distance = "euclidean") -> None:
        super().__init__(distance=distance)
        self.threshold = check_positive("threshold", threshold)

    def update(self, prediction: Any, reference: Any) -> None:
        """Record pairs ``(..., N, D)`` and ``(..., M, D)``."""
        pred, ref = _check_pair(prediction, reference)
        self._accumulate(self._kernel(pred, ref, self.threshold, self.distance))


class SDTW(NDTW):
    """Mean SDTW over every pair seen (see :func:`sdtw`).

    Examples
    --------
    >>> metric = SDTW(threshold=1.0)
    >>> metric.update([[0.0, 0.0], [1.0, 0.0]], [[0.0, 0.0], [1.0, 0.0]])
    >>> metric.update([[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [5.0, 0.0]])  # fails: ends 5 away
    >>> metric.compute()
    0.5
    """

    _kernel = staticmethod(_sdtw_kernel)
