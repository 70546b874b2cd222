"""torchmetrics classes over the same formulas, in torch operations (the ``torch`` extra).

Each class here is the torchmetrics twin of the NumPy class of the same name in
:mod:`robot_msgs.metrics`: per-item values come from the same kernels (written once against
the array API standard, computed in float64 on the tensors' device), and the state is a float64
``total`` and an int64 ``count``, both reduced across processes with ``dist_reduce_fx="sum"``,
so a distributed ``compute()`` is the mean over every process's items, never a mean of
per-process means. torchmetrics semantics apply: ``update()`` runs without gradients, while
calling the metric (``forward``) returns the batch value with gradients where the formula is
differentiable. ``compute()`` before any item raises :class:`RuntimeError` (after
torchmetrics' own warning).

Examples
--------
>>> import torch
>>> metric = PathSmoothness()
>>> metric.update(torch.tensor([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]]))
>>> round(metric.compute().item(), 12)  # √2 / 3
0.471404520791
>>> metric.total.dtype, metric.count.dtype
(torch.float64, torch.int64)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from robot_msgs import metrics as kernels
from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import (
    check_choice,
    check_mergeable,
    check_positive,
    nothing_recorded,
)
from robot_msgs.metrics.dtw import _DISTANCES
from robot_msgs.metrics.path import _NORMALIZATIONS
from robot_msgs.metrics.sparc import SparcOptions
from robot_msgs.optional import require

if TYPE_CHECKING:
    import torch
    from torch import Tensor
    from torchmetrics import Metric
else:
    torch = require("torch", "torch", feature="robot_msgs.metrics.torch")
    Metric = require("torchmetrics", "torch", feature="robot_msgs.metrics.torch").Metric

__all__ = [
    "DTW",
    "NDTW",
    "SDTW",
    "SPARC",
    "SPL",
    "AverageDisplacementError",
    "Curvature",
    "CurvatureChange",
    "FinalDisplacementError",
    "LogDimensionlessJerk",
    "PathLength",
    "PathSmoothness",
    "Straightness",
    "SuccessRate",
]


def _tensor(name: str, value: object) -> Tensor:
    """``value`` if it is a tensor, else :class:`ValidationError` (NumPy has its own classes)."""
    if not isinstance(value, torch.Tensor):
        msg = f"Expected `{name}` as a torch.Tensor, got {type(value).__name__}"
        raise ValidationError(msg)
    return value


class _MeanMetric(Metric):
    """Mean of per-item values: float64 ``total`` and int64 ``count``, summed across processes."""

    full_state_update = False
    is_differentiable = True
    higher_is_better: bool | None = None
    total: Tensor
    count: Tensor

    def __init__(self) -> None:
        super().__init__()
        self.add_state("total", default=torch.zeros((), dtype=torch.float64), dist_reduce_fx="sum")
        self.add_state("count", default=torch.zeros((), dtype=torch.int64), dist_reduce_fx="sum")

    def _accumulate(self, values: Tensor) -> None:
        self.total = self.total + values.sum()
        self.count = self.count + values.numel()

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Return the batch's value and record its items, as torchmetrics' ``forward``.

        A batch that raises (an input refused, a batch of no item) leaves every item
        recorded before as it was. WHY: torchmetrics resets the state to evaluate the batch
        alone and adds the saved state back only after ``compute()``, so a refused batch
        wiped every batch recorded before it (a review: 5 m of path, then one NaN batch
        caught and skipped, and ``compute()`` said "before any item was recorded").
        """
        saved = {name: getattr(self, name) for name in self._defaults}  # replaced, not mutated
        context = (self._update_count, self._to_sync, self._should_unsync, self.compute_on_cpu)
        try:
            return super().forward(*args, **kwargs)
        except Exception:
            for name, value in saved.items():
                setattr(self, name, value)
            self._update_count, self._to_sync, self._should_unsync, self.compute_on_cpu = context
            self._enable_grad = False
            raise

    def merge_state(self, incoming_state: dict[str, Any] | Metric) -> None:
        """Add another instance's (or a state dict's) ``total`` and ``count`` to this one.

        Raises
        ------
        TypeError
            When ``incoming_state`` is another metric type.
        SettingsMismatchError
            When it was made with different settings.

        WHY: torchmetrics checks only ``isinstance``, so a DTW took an NDTW's values and a
        PathSmoothness by path length one by ``L - 2``, in silence, where the NumPy twin's
        ``merge`` refuses; and it kept the value of an earlier ``compute()``, which then
        ignored the merged items (a review: 5.0 where the mean was 3.0). A merge counts as
        an update: merged into a fresh metric (one gathering the others' states),
        ``compute()`` warned that it "was called before the ``update`` method ... metric
        states have not yet been updated", where they had been.
        """
        if isinstance(incoming_state, Metric):
            check_mergeable(self, incoming_state)
        super().merge_state(incoming_state)
        self._computed = None
        self._update_count += 1

    def compute(self) -> Tensor:
        """Return the mean per-item value over every item recorded, on every process."""
        if int(self.count.item()) == 0:
            raise nothing_recorded(self)
        return self.total / self.count


class PathSmoothness(_MeanMetric):
    """Mean path smoothness (see :func:`robot_msgs.metrics.path_smoothness`).

    Examples
    --------
    >>> metric = PathSmoothness(normalization="points")
    >>> metric.update(torch.tensor([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]]))
    >>> round(metric.compute().item(), 12)  # √2 / 2
    0.707106781187
    """

    higher_is_better = False

    def __init__(self, *, normalization: Literal["path_length", "points"] = "path_length") -> None:
        super().__init__()
        self.normalization = check_choice("normalization", normalization, _NORMALIZATIONS)

    def update(self, trajectory: Tensor) -> None:
        """Record trajectories ``(..., L, D)``, ``L >= 3``."""
        self._accumulate(
            kernels.path_smoothness(
                _tensor("trajectory", trajectory), normalization=self.normalization
            )
        )


class PathLength(_MeanMetric):
    """Mean path length in metres.

    Examples
    --------
    >>> metric = PathLength()
    >>> metric.update(torch.tensor([[[0.0, 0.0], [3.0, 4.0]], [[0.0, 0.0], [0.0, 1.0]]]))
    >>> metric.compute().item()
    3.0
    """

    def update(self, trajectory: Tensor) -> None:
        """Record trajectories ``(..., L, D)``, ``L >= 2``."""
        self._accumulate(kernels.path_length(_tensor("trajectory", trajectory)))


class Straightness(_MeanMetric):
    """Mean straightness index.

    Examples
    --------
    >>> metric = Straightness()
    >>> metric.update(torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0]]))  # there and back
    >>> metric.compute().item()
    0.0
    """

    higher_is_better = True

    def update(self, trajectory: Tensor) -> None:
        """Record trajectories ``(..., L, D)``, ``L >= 2``."""
        self._accumulate(kernels.straightness(_tensor("trajectory", trajectory)))


class Curvature(_MeanMetric):
    """Mean absolute curvature, rad/m.

    Examples
    --------
    >>> metric = Curvature()
    >>> metric.update(torch.tensor([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]))
    >>> round(metric.compute().item(), 12)  # (π/2) / 2
    0.785398163397
    """

    higher_is_better = False

    def update(self, trajectory: Tensor) -> None:
        """Record trajectories ``(..., L, D)``, ``L >= 3``."""
        self._accumulate(kernels.curvature(_tensor("trajectory", trajectory)))


class CurvatureChange(_MeanMetric):
    """Mean curvature change with wrapped headings.

    Examples
    --------
    >>> metric = CurvatureChange()
    >>> xy = torch.tensor([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], dtype=torch.float64)
    >>> metric.update(xy, torch.tensor([3.14, -3.14, -3.14], dtype=torch.float64))
    >>> round(metric.compute().item(), 10)  # 2π - 6.28
    0.0031853072
    """

    higher_is_better = False

    def update(self, positions: Tensor, headings: Tensor) -> None:
        """Record positions ``(..., L, D)`` and headings ``(..., L)`` rad."""
        self._accumulate(
            kernels.curvature_change(_tensor("positions", positions), _tensor("headings", headings))
        )


class LogDimensionlessJerk(_MeanMetric):
    """Mean LDLJ of speed profiles sampled at ``sample_rate_hz``.

    Examples
    --------
    >>> t = torch.arange(-1, 1, 0.01, dtype=torch.float64)
    >>> metric = LogDimensionlessJerk(sample_rate_hz=100.0)
    >>> metric.update(torch.exp(-5 * t**2))
    >>> round(metric.compute().item(), 5)
    -5.81636
    """

    higher_is_better = True

    def __init__(self, *, sample_rate_hz: float) -> None:
        super().__init__()
        self.sample_rate_hz = check_positive("sample_rate_hz", sample_rate_hz)

    def update(self, speed: Tensor) -> None:
        """Record speed profiles ``(..., L)``, ``L >= 3``, m/s."""
        self._accumulate(
            kernels.log_dimensionless_jerk(_tensor("speed", speed), self.sample_rate_hz)
        )


class SPARC(SparcOptions, _MeanMetric):
    """Mean spectral arc length of speed profiles (the NumPy ``SPARC``'s settings).

    Examples
    --------
    >>> t = torch.arange(-1, 1, 0.01, dtype=torch.float64)
    >>> metric = SPARC(sample_rate_hz=100.0)
    >>> metric.update(torch.exp(-5 * t**2))
    >>> round(metric.compute().item(), 5)
    -1.41403
    """

    higher_is_better = True

    def __init__(
        self,
        *,
        sample_rate_hz: float,
        max_cutoff_hz: float = 10.0,
        amplitude_threshold: float = 0.05,
        pad_level: int = 4,
    ) -> None:
        super().__init__()
        self._set_options(sample_rate_hz, max_cutoff_hz, amplitude_threshold, pad_level)

    def update(self, speed: Tensor) -> None:
        """Record speed profiles ``(..., L)``, ``L >= 2``, m/s."""
        values = kernels.sparc(
            _tensor("speed", speed),
            self.sample_rate_hz,
            max_cutoff_hz=self.max_cutoff_hz,
            amplitude_threshold=self.amplitude_threshold,
            pad_level=self.pad_level,
        )
        self._accumulate(values)


class AverageDisplacementError(_MeanMetric):
    """Mean ADE, metres.

    Examples
    --------
    >>> metric = AverageDisplacementError()
    >>> truth = torch.tensor([[0.0, 0.0], [1.0, 0.0]])
    >>> metric.update(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), truth)
    >>> metric.compute().item()
    0.5
    """

    higher_is_better = False

    def update(self, prediction: Tensor, target: Tensor) -> None:
        """Record predictions and targets of one shape ``(..., L, D)``."""
        self._accumulate(
            kernels.average_displacement_error(
                _tensor("prediction", prediction), _tensor("target", target)
            )
        )


class FinalDisplacementError(_MeanMetric):
    """Mean FDE, metres.

    Examples
    --------
    >>> metric = FinalDisplacementError()
    >>> metric.update(torch.tensor([[0.0, 0.0], [3.0, 4.0]]), torch.zeros(2, 2))
    >>> metric.compute().item()
    5.0
    """

    higher_is_better = False

    def update(self, prediction: Tensor, target: Tensor) -> None:
        """Record predictions and targets of one shape ``(..., L, D)``."""
        self._accumulate(
            kernels.final_displacement_error(
                _tensor("prediction", prediction), _tensor("target", target)
            )
        )


class DTW(_MeanMetric):
    """Mean DTW distance, metres.

    Examples
    --------
    >>> metric = DTW()
    >>> metric.update(torch.tensor([[0.0], [1.0], [2.0]]), torch.tensor([[0.0], [2.0]]))
    >>> metric.compute().item()
    1.0
    """

    higher_is_better = False

    def __init__(self, *, distance: Literal["euclidean", "cityblock"] = "euclidean") -> None:
        super().__init__()
        self.distance = check_choice("distance", distance, _DISTANCES)

    def update(self, prediction: Tensor, reference: Tensor) -> None:
        """Record pairs ``(..., N, D)`` and ``(..., M, D)``."""
        self._accumulate(
            kernels.dtw(
                _tensor("prediction", prediction),
                _tensor("reference", reference),
                distance=self.distance,
            )
        )


class NDTW(DTW):
    """Mean nDTW.

    Examples
    --------
    >>> metric = NDTW(threshold=3.0, distance="cityblock")  # r4r/dtw.py's doctest
    >>> q = torch.tensor([[0, 0], [1, 0], [2, 0], [3, 0]])
    >>> metric.update(q, torch.tensor([[0, 0], [1, 0], [2, 1], [3, 2]]))
    >>> round(metric.compute().item(), 12)
    0.778800783071
    """

    higher_is_better = True
    _kernel = staticmethod(kernels.ndtw)  # SDTW's is sdtw: the one difference

    def __init__(
        self, *, threshold: float = 3.0, distance: Literal["euclidean", "cityblock"] = "euclidean"
    ) -> None:
        super().__init__(distance=distance)
        self.threshold = check_positive("threshold", threshold)

    def update(self, prediction: Tensor, reference: Tensor) -> None:
        """Record pairs ``(..., N, D)`` and ``(..., M, D)``."""
        self._accumulate(
            self._kernel(
                _tensor("prediction", prediction),
                _tensor("reference", reference),
                threshold=self.threshold,
                distance=self.distance,
            )
        )


class SDTW(NDTW):
    """Mean SDTW.

    Examples
    --------
    >>> metric = SDTW(threshold=1.0)
    >>> reference = torch.tensor([[0.0, 0.0], [5.0, 0.0]])
    >>> metric.update(torch.zeros(2, 2), reference)
    >>> metric.compute().item()  # ends 5 m away: failed
    0.0
    """

    _kernel = staticmethod(kernels.sdtw)


class SuccessRate(_MeanMetric):
    """Share of successful episodes.

    Examples
    --------
    >>> metric = SuccessRate()
    >>> metric.update(torch.tensor([True, False, True, True]))
    >>> metric.compute().item()
    0.75
    """

    higher_is_better = True
    is_differentiable = False

    def update(self, success: Tensor) -> None:
        """Record success flags ``(...)``."""
        self._accumulate(kernels.success_rate(_tensor("success", success)))


class SPL(_MeanMetric):
    """Success weighted by path length.

    Examples
    --------
    >>> metric = SPL()
    >>> metric.update(torch.tensor([1, 1]), torch.tensor([10.0, 10.0]), torch.tensor([10.0, 20.0]))
    >>> metric.compute().item()
    0.75
    """

    higher_is_better = True

    def update(self, success: Tensor, shortest_path_length: Tensor, path_length: Tensor) -> None:
        """Record episodes: success flags, shortest and taken path lengths ``(...)``."""
        self._accumulate(
            kernels.spl(
                _tensor("success", success),
                _tensor("shortest_path_length", shortest_path_length),
                _tensor("path_length", path_length),
            )
        )
