"""Jerk-based smoothness: dimensionless jerk, its log and ``LogDimensionlessJerk``.

Inputs are speed profiles sampled uniformly: shape ``(..., L)``, time along the last axis,
at ``sample_rate_hz``. :func:`speed_from_positions` makes one from timed positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.metrics.base import (
    StreamingMean,
    array_namespace,
    as_result,
    at_index,
    check_points,
    check_positive,
    check_samples,
    first_index,
    norms,
    position_rounding,
)
from robot_msgs.series import input_eps

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from torch import Tensor

    from robot_msgs.typing import Float64Array

__all__ = [
    "LogDimensionlessJerk",
    "check_moving",
    "dimensionless_jerk",
    "log_dimensionless_jerk",
    "speed_from_positions",
]


def check_moving(peak: Any) -> None:
    """Raise :class:`ValidationError` naming the first speed profile whose ``peak`` is 0."""
    if bool(array_namespace(peak).any(peak == 0)):
        index = first_index(peak == 0)
        msg = f"Expected a movement in `speed`, got a profile that is 0 throughout{at_index(index)}"
        raise ValidationError(msg)


def _jerk_cost(speed: Any, *, checked: bool = True) -> Any:
    """``T³ / v_peak² ∫ (d²v/dt²)² dt`` per profile, ``(..., L) -> (...)``: ``-DJ``.

    Computed as ``L³ Σ (Δ²(v / v_peak))²``, the same number: with ``T = L Δt``, second
    differences over ``Δt²`` and a rectangle rule, every ``Δt`` cancels (the sampling
    rate does not enter). WHY not as written: squaring the speed and ``Δt`` first left
    the float64 range for a scale-free quantity: a profile of 1e-300 m/s divided by a
    ``v_peak²`` of 0 ('divide by zero' where warnings are errors, -inf on a tensor, and
    "without jerk" for its log), one of 1e200 m/s or at 1e200 Hz overflowed (a review).

    ``checked=False``: a still profile is not refused here (its cost is NaN); the caller
    checks it with its own (one synchronisation with a device for both).
    """
    xp = array_namespace(speed)
    peak = xp.max(xp.abs(speed), axis=-1, keepdims=True)
    if checked:
        check_moving(peak[..., 0])
    v = speed / peak
    second_difference = v[..., 2:] - 2.0 * v[..., 1:-1] + v[..., :-2]
    return float(speed.shape[-1]) ** 3 * xp.sum(second_difference * second_difference, axis=-1)


def _log_dimensionless_jerk_kernel(speed: Any) -> Any:
    """``-ln(T³ / v_peak² ∫ (d²v/dt²)² dt)`` per profile; a profile without jerk is refused.

    Constant or linear speed has no jerk: the log is infinite (``inf`` and a NumPy
    warning, which then made a streaming mean ``inf``), or, from the rounding of its
    second differences, any large number (65.2 for a ramp of 10 samples; a review).
    Rounding leaves a cost of about ``L⁴ ε²`` for ``L`` samples (at most 1.5 ``L⁴ ε²``
    measured, ramps and constant speeds of 3 to 10^5 samples); a cost below a thousand
    times that is refused. A movement's cost is far above it: the minimum-jerk profile's
    is 204.8, a 0.5 % ripple's over one period 0.019, above it up to 4.4 million samples.
    WHY not a million times: that refused the ripple at 10^6 samples, and the minimum-jerk
    profile itself past 8 million, as "constant or linear speed" (a review).
    """
    xp = array_namespace(speed)
    with np.errstate(invalid="ignore", divide="ignore"):  # a still profile: 0/0, refused
        cost = _jerk_cost(speed, checked=False)
    rounding = 1e3 * (speed.shape[-1] ** 2 * float(np.finfo(np.float64).eps)) ** 2
    flat = cost <= rounding
    if bool(xp.any(flat | xp.isnan(cost))):  # one check for both
        check_moving(xp.max(xp.abs(speed), axis=-1))  # a still profile, said as such
        msg = (
            "Expected a movement in `speed` (one that speeds up and slows down), got a "
            f"profile without jerk{at_index(first_index(flat))} (constant or linear speed, "
            "to rounding): its log dimensionless jerk is infinite"
        )
        raise ValidationError(msg)
    return as_result(-xp.log(cost))


@overload
def speed_from_positions(positions: Tensor, sample_rate_hz: float) -> Tensor: ...
@overload
def speed_from_positions(positions: ArrayLike, sample_rate_hz: float) -> Float64Array: ...
def speed_from_positions(positions: Any, sample_rate_hz: float) -> Any:
    r"""Speed profiles from uniformly sampled positions, by central differences.

    .. math:: v_i = \lVert p_{i+1} - p_{i-1} \rVert \, f_s / 2

    (one-sided differences at both ends, as :func:`numpy.gradient`).

    Parameters
    ----------
    positions : array_like or torch.Tensor, shape (..., L, D), float64, metres
        ``L >= 2``.
    sample_rate_hz : float
        Sampling rate, Hz.

    Returns
    -------
    ndarray or torch.Tensor, shape (..., L), float64, m/s
        A tensor for a tensor (same device, with gradients), as every kernel here. A
        speed past float64 is ``inf``. A profile constant to the rounding of its
        positions is that constant, 0 where the positions stay within their rounding
        (see below).

    Notes
    -----
    Each speed is known to the rounding of the positions it comes from, up to
    :math:`u = 4 \sqrt{D}\, \varepsilon \max \lvert p \rvert f_s` (half an ulp of each
    coordinate, with room; :math:`\varepsilon` of the positions' type, float32's for
    float32 positions); speeds all within it of their mean are that mean. WHY: that
    rounding, not the speeds' own, is what a profile of constant speed carries, so
    :func:`log_dimensionless_jerk` of 1 mm steps at 100 Hz over 1000 samples said 37.3
    ("smoother" than any movement), 19.7 a kilometre from the origin, where it refuses
    constant speed given as speeds; positions still to their last bit gave a number too,
    where SPARC and LDLJ refuse a still profile (a review). Both are refused now: a
    profile without jerk, a profile that is 0 throughout. Only the positions' rounding is
    taken out: a movement, or a staircase of positions quantised to 1 mm while moving
    less than 1 mm a sample, keeps its speeds.

    A profile is still (0) where the positions themselves stay within :math:`u / f_s` of
    each other, not where its mean speed is within :math:`u` of 0. WHY: the mean speed
    of a creep is known far better than each speed; a point at ECEF coordinates
    (4.5e6 m) creeping 10 µm in 2 s at 1 kHz (5 µm/s, below :math:`u` = 7e-6 m/s, ten
    thousand ulps of travel) was said still, and SPARC refused it (a review).

    WHY float32's :math:`\varepsilon` for float32 positions: held to float64's, the
    rounding of a constant speed stored as float32 stayed in its speeds (a 0.5 m/s line
    of 100 samples from the origin: 2.1e-6 m/s apart, :math:`u` 6e-14), and LDLJ read
    it as jerk, 7.8, where the same line in float64 is refused as without jerk.

    Examples
    --------
    >>> speed_from_positions([[0.0, 0.0], [0.3, 0.4], [0.6, 0.8]], 10.0)
    array([5., 5., 5.])
    """
    fs = check_positive("sample_rate_hz", sample_rate_hz)
    points = check_points("positions", positions, min_points=2)
    # WHY the norms of the differences, then the rate: np.gradient divided by dt first,
    # so 1 m at 1e300 Hz overflowed its square ('overflow encountered in multiply' where
    # warnings are errors), and for a tensor it gave NumPy's array back, or torch's
    # RuntimeError for one that requires gradients (a review).
    xp = array_namespace(points)
    first = norms(points[..., 1:2, :] - points[..., :1, :])
    inner = norms(points[..., 2:, :] - points[..., :-2, :])
    last = norms(points[..., -1:, :] - points[..., -2:-1, :])
    with np.errstate(over="ignore", invalid="ignore"):  # a speed past float64 is inf
        speed = xp.concat([first * fs, inner * (fs / 2.0), last * fs], axis=-1)
        # The rounding of one position difference, metres (...): u / fs; still profiles.
        step, still = position_rounding(points, input_eps(positions))
        speed = _constant_to_rounding(speed, step[..., None] * fs)
        return as_result(xp.where(still[..., None], xp.zeros_like(speed), speed))


def _constant_to_rounding(speed: Any, rounding: Any) -> Any:
    """``speed`` ``(..., L)``, or its mean where that explains it to ``rounding`` ``(..., 1)``."""
    xp = array_namespace(speed)
    mean = xp.mean(speed, axis=-1, keepdims=True)
    explained = xp.all(xp.abs(speed - mean) <= rounding, axis=-1, keepdims=True)
    return xp.where(explained & xp.isfinite(rounding), mean, speed)


@overload
def dimensionless_jerk(speed: Tensor, sample_rate_hz: float) -> Tensor: ...
@overload
def dimensionless_jerk(speed: ArrayLike, sample_rate_hz: float) -> Float64Array: ...
def dimensionless_jerk(speed: Any, sample_rate_hz: float) -> Any:
    r"""Dimensionless jerk of each speed profile (Hogan & Sternad 2009), negative.

    .. math::

        \mathrm{DJ} = -\frac{T^3}{v_{\text{peak}}^2} \int_0^T
            \left(\frac{d^2 v}{dt^2}\right)^2 dt

    discretised as the reference implementation (Balasubramanian, ``smoothness.py``):
    :math:`T = L\,\Delta t`, second differences over :math:`\Delta t^2`, and a rectangle
    rule for the integral. Hogan & Sternad, "Sensitivity of smoothness measures to movement
    duration, amplitude, and arrests", *J. Motor Behavior* 41(6):529, 2009.

    Parameters
    ----------
    speed : array_like, shape (..., L), float64, m/s
        ``L >= 3``, not 0 throughout.
    sample_rate_hz : float

    Returns
    -------
    ndarray, shape (...), float64 (dimensionless, < 0; closer to 0 is smoother)

    Examples
    --------
    >>> t = np.arange(-1, 1, 0.01)
    >>> round(float(dimensionless_jerk(np.exp(-5 * t**2), 100.0)), 5)
    -335.74684
    """
    check_positive("sample_rate_hz", sample_rate_hz)  # checked, though every Δt cancels
    return as_result(-_jerk_cost(check_samples("speed", speed, min_samples=3)))


@overload
def log_dimensionless_jerk(speed: Tensor, sample_rate_hz: float) -> Tensor: ...
@overload
def log_dimensionless_jerk(speed: ArrayLike, sample_rate_hz: float) -> Float64Array: ...
def log_dimensionless_jerk(speed: Any, sample_rate_hz: float) -> Any:
    r"""Log dimensionless jerk of each speed profile, :math:`-\ln\lvert\mathrm{DJ}\rvert`.

    .. math:: \mathrm{LDLJ} = -\ln \left( \frac{T^3}{v_{\text{peak}}^2}
        \int_0^T \left(\frac{d^2 v}{dt^2}\right)^2 dt \right)

    (Balasubramanian, Melendez-Calderon, Roby-Brami & Burdet, "On the analysis of movement
    smoothness", *J. NeuroEng. Rehabil.* 12:112, 2015, Table 1; discretised as
    :func:`dimensionless_jerk`). Higher (closer to 0) is smoother.

    Examples
    --------
    >>> t = np.arange(-1, 1, 0.01)
    >>> round(float(log_dimensionless_jerk(np.exp(-5 * t**2), 100.0)), 5)
    -5.81636
    """
    check_positive("sample_rate_hz", sample_rate_hz)  # checked, though every Δt cancels
    return _log_dimensionless_jerk_kernel(check_samples("speed", speed, min_samples=3))


class LogDimensionlessJerk(StreamingMean):
    """Mean LDLJ over every speed profile seen (see :func:`log_dimensionless_jerk`).

    Parameters
    ----------
    sample_rate_hz : float
        Sampling rate of every profile passed to :meth:`update`, Hz.

    Examples
    --------
    >>> t = np.arange(-1, 1, 0.01)
    >>> metric = LogDimensionlessJerk(sample_rate_hz=100.0)
    >>> metric.update(np.exp(-5 * t**2))
    >>> round(metric.compute(), 5)
    -5.81636
    """

    def __init__(self, *, sample_rate_hz: float) -> None:
        super().__init__()
        self.sample_rate_hz = check_positive("sample_rate_hz", sample_rate_hz)

    def update(self, speed: Any) -> None:
        """Record speed profiles of shape ``(..., L)``, ``L >= 3``, m/s."""
        self._accumulate(log_dimensionless_jerk(speed, self.sample_rate_hz))
