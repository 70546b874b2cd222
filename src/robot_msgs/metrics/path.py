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

import contextvars
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args, overload

import numpy as np

from robot_msgs.limits import usable_cpus
from robot_msgs.metrics.base import (
    StreamingMean,
    array_namespace,
    as_result,
    check_choice,
    check_coordinates,
    check_points,
    difference_rounding,
    norms,
    position_rounding,
    ratio_or,
    within_limit,
)
from robot_msgs.series import input_eps

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import ArrayLike
    from torch import Tensor

    from robot_msgs.typing import Float64Array

__all__ = [
    "PathLength",
    "PathSmoothness",
    "Straightness",
    "path_length",
    "path_smoothness",
    "straightness",
]

T = TypeVar("T")
Normalization = Literal["path_length", "points"]
_NORMALIZATIONS: tuple[Normalization, ...] = get_args(Normalization)


# --------------------------------------------------------------------------- kernels


#: Points per block of the path kernels: a block and its temporaries stay in cache, which
#: halves the time on large batches compared with whole-array NumPy expressions.
BLOCK_POINTS = 32768


def _threads(n_tasks: int) -> int:
    """Worker threads for ``n_tasks`` blocks: the CPUs this process may use, at most."""
    return max(1, min(usable_cpus(), n_tasks))


def _run_blocks(tasks: list[Callable[[], T]]) -> list[T]:
    """Results of ``tasks`` in order; on several threads when there are several blocks.

    WHY threads: NumPy releases the GIL inside its loops, so independent blocks run in
    parallel; results are combined in task order, so the output does not depend on the
    number of threads. WHY each in a copy of the caller's context (as
    :mod:`robot_msgs.io.side_by_side` does): a pool's thread runs in an empty one, so what
    a block said was not the caller's, where the one-thread loop's was: a warning was left
    out of its run's notes (:func:`~robot_msgs.batch.tasks.run_task` keeps those of the
    run's context) and shown as another thread's.
    """
    workers = _threads(len(tasks))
    if workers == 1:
        return [task() for task in tasks]
    # A context is entered by one thread at a time: a copy for each block, made here.
    in_context = [partial(contextvars.copy_context().run, task) for task in tasks]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda task: task(), in_context))


Sums = tuple[Any, Any, Any]


def _block_sums(block: Any, *, turns: bool, n_steps: int | None = None) -> Sums:
    """Sum change-of-step norms and the first ``n_steps`` step norms of a ``(R, L, D)`` block.

    With ``turns``, also each row's largest change of step (zeros without). A NumPy
    block is checked for non-finite values and coordinates past the limit while in cache.
    """
    if isinstance(block, np.ndarray) and not within_limit(block):
        raise _NonFiniteBlockError
    xp = array_namespace(block)
    steps = block[:, 1:, :] - block[:, :-1, :]
    length = xp.sum(norms(steps[:, :n_steps]), axis=-1)
    if not turns:
        zeros = xp.zeros_like(length)
        return zeros, length, zeros
    changes = norms(steps[:, 1:, :] - steps[:, :-1, :])
    return xp.sum(changes, axis=-1), length, xp.max(changes, axis=-1)


class _NonFiniteBlockError(Exception):
    """A block is not proven within the limit: :func:`check_coordinates` locates the value."""


def _path_sums(points: Any, *, turns: bool) -> Sums:
    """Per-trajectory ``(Σ‖Δ²p‖, Σ‖Δp‖, max‖Δ²p‖)``, shape ``(...)``, block by block.

    Short trajectories go by groups of rows; a long one by runs of points overlapping by
    two, so each change of step and each step is counted exactly once. Every block is
    checked for non-finite values and coordinates past the limit while in cache
    (:func:`check_coordinates` names the index).
    A tensor goes as one block: its library schedules the work on its device.
    """
    n_points, dims = points.shape[-2], points.shape[-1]
    batch = tuple(points.shape[:-2])
    if not isinstance(points, np.ndarray):
        check_coordinates("trajectory", points)
        return _reshaped(_block_sums(points.reshape(-1, n_points, dims), turns=turns), batch)
    flat = points.reshape(-1, n_points, dims)
    rows = max(1, BLOCK_POINTS // n_points)
    tasks: list[Callable[[], Sums]] = []
    owners: list[int] = []  # the first row each task's sums belong to
    if n_points <= BLOCK_POINTS:
        for start in range(0, flat.shape[0], rows):
            tasks.append(partial(_block_sums, flat[start : start + rows], turns=turns))
            owners.append(start)
    else:
        # Block k holds points [a, a + BLOCK + 2): its changes of step a .. a + BLOCK - 1 and
        # its first BLOCK steps; the last block keeps its final step too.
        for row in range(flat.shape[0]):
            for a in range(0, n_points - 2, BLOCK_POINTS):
                last = a + BLOCK_POINTS + 2 >= n_points
                block = flat[row : row + 1, a : a + BLOCK_POINTS + 2]
                n_steps = None if last else BLOCK_POINTS
                tasks.append(partial(_block_sums, block, turns=turns, n_steps=n_steps))
                owners.append(row)
    try:
        results = _run_blocks(tasks)
    except _NonFiniteBlockError:
        check_coordinates("trajectory", points)  # raises naming the first bad index
        raise  # pragma: no cover - within_limit's False proves a bad value
    if len(results) == 1:  # every row in one block
        return _reshaped(results[0], batch)
    out = np.zeros((3, flat.shape[0]))  # two sums, then a maximum
    for owner, block_sums in zip(owners, results, strict=True):
        rows_of = slice(owner, owner + block_sums[0].size)
        out[:2, rows_of] += block_sums[:2]
        np.maximum(out[2, rows_of], block_sums[2], out=out[2, rows_of])
    return _reshaped((out[0], out[1], out[2]), batch)


def _reshaped(sums: Sums, batch: tuple[int, ...]) -> Sums:
    change, length, largest = sums
    return change.reshape(batch), length.reshape(batch), largest.reshape(batch)


def _path_smoothness_kernel(points: Any, normalization: Normalization, eps: float) -> Any:
    change, length, largest = _path_sums(points, turns=True)
    change = _without_rounding(points, change, length, largest, eps)
    if normalization == "points":
        return as_result(change / (points.shape[-2] - 2))
    return ratio_or(change, length, 0.0)


def _without_rounding(points: Any, change: Any, length: Any, largest: Any, eps: float) -> Any:
    """``change``, 0 for each trajectory whose changes of step are all rounding.

    By :func:`position_rounding`'s rule, as :func:`~robot_msgs.metrics.speed_from_positions`
    takes a profile for still or constant: points still to their rounding ``u``, or a
    straight line at constant speed to ``u``: changes of step (differences of two steps)
    all within ``u`` *and* every point within ``u`` of the line between the ends at
    constant speed. WHY the line too: small changes alone were also a real curve sampled
    finely, where rounding is a small part of each change: a float32 circle of 5 m radius
    100 m from the origin at 1 m/s, 100 Hz (changes 2e-5 m, ``u`` 8e-5 m) said 0 where
    the formula gives 0.00208 (hand: 0.0020), and a car's square of 2 m steps at float32
    ECEF coordinates (exact there) 0 where it gives 0.0212 (a review).
    WHY first a bound: ``max |p|`` of each trajectory, taken in every block, cost 19 % of
    the kernel's time on a batch (40 % on one trajectory). Either case has every change
    within ``2 u`` (a change is at most twice the still points' extent), and no
    coordinate is farther from 0 than ``|p_0| + PL``: a trajectory whose ``largest``
    exceeds twice the ``2 u`` of that is not rounding (real motion), and NumPy tests
    only the others.
    """
    if isinstance(points, np.ndarray):
        bound = 4.0 * difference_rounding(_farthest(points, length), points.shape[-1], eps)
        flat_largest = largest.reshape(-1)
        return _fill_candidates(
            points,
            change,
            largest <= bound,
            lambda rows, index: _rounding(rows, flat_largest[index], eps),
            0.0,
        )
    return array_namespace(change).where(_rounding(points, largest, eps), 0.0, change)


def _rounding(points: Any, largest: Any, eps: float) -> Any:
    """Whether each trajectory is still, or a straight line at constant speed, to its rounding."""
    step, still = position_rounding(points, eps)
    return still | ((largest <= step) & _on_line(points, step))


def _farthest(points: Float64Array, length: Float64Array) -> Float64Array:
    """Bound ``max |p|`` of each trajectory, shape ``(...)``, by ``max |p_0| + PL``."""
    far: Float64Array = np.abs(points[..., 0, :]).max(axis=-1) + length
    return far


def _fill_candidates(
    points: Float64Array,
    value: Any,
    candidates: Any,
    test: Callable[[Float64Array, Any], Any],
    fill: float,
) -> Any:
    """``value`` with ``fill`` where a trajectory among ``candidates`` passes ``test``.

    ``test`` takes the candidates' points ``(C, L, D)`` and their flat indices. WHY per
    trajectory, not one bound for the whole batch: one still trajectory in a batch (a
    zero-padded row) opened a batch-wide bound for every row, and the full test over all
    of them made ``path_smoothness`` of a 1000 x 1000 x 3 batch 7 times slower and
    ``straightness`` 8 times (a review).
    """
    index = np.flatnonzero(candidates)
    if index.size == 0:
        return value
    rows = points.reshape(-1, points.shape[-2], points.shape[-1])[index]
    out = np.array(value, dtype=np.float64).reshape(-1)
    out[index[test(rows, index)]] = fill
    return out.reshape(np.shape(value))


def _on_line(points: Any, step: Any) -> Any:
    """Whether every point is within ``step`` (shape ``(...)``) of the ends' constant-speed line."""
    xp = array_namespace(points)
    n_points = points.shape[-2]
    fraction = xp.reshape(xp.arange(n_points, dtype=points.dtype), (n_points, 1)) / (n_points - 1)
    first = points[..., :1, :]
    line = first + (points[..., -1:, :] - first) * fraction
    return xp.max(norms(points - line), axis=-1) <= step


def _still_is_straight(points: Any, ratio: Any, length: Any, eps: float) -> Any:
    """``ratio``, 1 for each trajectory still to its rounding (:func:`position_rounding`).

    WHY: a point at 5e5 m moving one ulp back and forth was a path that returns (0),
    where one that never moves gets 1 (a review). A still path's steps are each within
    its rounding ``u``, so its length is at most ``(L - 1) u`` with ``max |p|`` at most
    ``|p_0| + PL``: a trajectory longer than that is not still, and NumPy tests only the
    others (:func:`_fill_candidates`).
    """
    if isinstance(points, np.ndarray):
        bound = (points.shape[-2] - 1) * difference_rounding(
            _farthest(points, length), points.shape[-1], eps
        )

        def still(rows: Float64Array, _: Any) -> Any:
            return position_rounding(rows, eps)[1]

        return _fill_candidates(points, ratio, length <= bound, still, 1.0)
    still = position_rounding(points, eps)[1]
    return array_namespace(ratio).where(still, 1.0, ratio)


def _path_length_kernel(points: Any) -> Any:
    return _path_sums(points, turns=False)[1]


def _straightness_kernel(points: Any, eps: float) -> Any:
    length = _path_length_kernel(points)  # first: its blocks check the coordinates
    ratio = ratio_or(norms(points[..., -1, :] - points[..., 0, :]), length, 1.0)
    ratio = _still_is_straight(points, ratio, length, eps)
    # At most 1 (the triangle inequality), which the rounding of the step norms broke:
    # [[0, 0], [0.1, 0.1], [1, 1]] gave 1.0000000000000002 (a review). `where`, not
    # `minimum`: a straight path keeps its whole gradient (torch halves it at a tie).
    return as_result(array_namespace(ratio).where(ratio > 1.0, 1.0, ratio))


# --------------------------------------------------------------------------- functional twins


@overload
def path_smoothness(
    trajectory: Tensor, *, normalization: Normalization = "path_length"
) -> Tensor: ...
@overload
def path_smoothness(
    trajectory: ArrayLike, *, normalization: Normalization = "path_length"
) -> Float64Array: ...
def path_smoothness(trajectory: Any, *, normalization: Normalization = "path_length") -> Any:
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
        never moves (PL = 0) has no change of direction and gets 0 by definition; so does
        one whose changes of step are all within the rounding of its points, still or a
        straight line at constant speed to their last bits (see below).

    Raises
    ------
    ValidationError
        A shape other than ``(..., L, D)``, ``L < 3``, or a non-finite value (the message
        names its index).

    Notes
    -----
    A path whose points stay within the rounding :math:`u` of one difference of them
    (:func:`~robot_msgs.metrics.base.position_rounding`, :math:`\varepsilon` of their
    type) is still, and one whose changes of step (differences of two steps) are all
    within :math:`u` is a straight line at constant speed: both get 0, the rule by which
    :func:`~robot_msgs.metrics.speed_from_positions` takes a profile for still or
    constant. WHY: the formula divides rounding by rounding there: a point at 5e5 m
    moving one ulp back and forth gave 2.0, a point at ECEF coordinates creeping 5 µm/s
    at 1 kHz in a straight line 0.137, where a still path gets 0 and the speeds of both
    are 0 and constant (a review). A turn keeps its number: a right turn of centimetre
    steps at 1e8 m (one change of one ulp, one of a step) still gives 0.4714.

    Examples
    --------
    >>> turn = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]]
    >>> float(path_smoothness(turn))  # √2 / 3
    0.47140452079103173
    >>> float(path_smoothness(turn, normalization="points"))  # √2 / 2
    0.7071067811865476
    """
    normalization = check_choice("normalization", normalization, _NORMALIZATIONS)
    points = check_points("trajectory", trajectory, min_points=3, finite=False)
    return _path_smoothness_kernel(points, normalization, input_eps(trajectory))


@overload
def path_length(trajectory: Tensor) -> Tensor: ...
@overload
def path_length(trajectory: ArrayLike) -> Float64Array: ...
def path_length(trajectory: Any) -> Any:
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
    return _path_length_kernel(check_points("trajectory", trajectory, min_points=2, finite=False))


@overload
def straightness(trajectory: Tensor) -> Tensor: ...
@overload
def straightness(trajectory: ArrayLike) -> Float64Array: ...
def straightness(trajectory: Any) -> Any:
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
        A path that never moves (PL = 0), or moves only by its coordinates' rounding,
        made no detour and gets 1 by definition.

    Examples
    --------
    >>> float(straightness([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]))  # √2 / 2
    0.7071067811865476
    """
    points = check_points("trajectory", trajectory, min_points=2, finite=False)
    return _straightness_kernel(points, input_eps(trajectory))


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
        self.normalization = check_choice("normalization", normalization, _NORMALIZATIONS)

    def update(self, trajectory: Any) -> None:
        """Record trajectories of shape ``(..., L, D)``, ``L >= 3``."""
        self._accumulate(path_smoothness(trajectory, normalization=self.normalization))


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
