""":func:`step_response`: rise, settling, overshoot and peak of a measured step response.

Every figure is relative to an initial and a final value, given or measured (MATLAB's
``stepinfo(y, t, yfinal, yinit)`` convention). WHY not python-control's ``step_info``: it
has no initial value, so a response from 5 to 6 (first order, 1 s) gets its 10 % and 90 %
levels at 0.6 and 5.4 and a rise time of about 0.51 s (0.511 s on a 1 ms grid, 0.52 s on
a 20 ms one) instead of 2.20 s, and it treats ``yfinal=0`` as "not given"
(``if yfinal:``). It also reads crossing times off the samples; here they are interpolated
linearly between the two samples around each crossing, so figures do not move by up to one
sample period with the sampling phase.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.compare.step_response import StepResponse
from robot_msgs.errors import ValidationError
from robot_msgs.series import check_series, real_float

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.typing import Float64Array

__all__ = ["command_step", "step_response", "step_response_to_command"]


def _first_crossing(t: Float64Array, r: Float64Array, level: float) -> float:
    """Time ``r`` first reaches ``level`` (from below), linear between samples; NaN if never."""
    reached = np.flatnonzero(r >= level)
    if reached.size == 0:
        return math.nan
    k = int(reached[0])
    if k == 0:
        return float(t[0])
    frac = (level - r[k - 1]) / (r[k] - r[k - 1])
    return float(t[k - 1] + frac * (t[k] - t[k - 1]))


def _settling_time(t: Float64Array, r: Float64Array, threshold: float) -> float:
    """Time ``|r - 1|`` enters the band for good, linear between samples; NaN if never."""
    e = r - 1.0
    outside = np.flatnonzero(np.abs(e) > threshold)
    if outside.size == 0:
        return float(t[0])
    k = int(outside[-1])
    if k == e.size - 1:
        return math.nan
    edge = math.copysign(threshold, e[k])
    frac = (e[k] - edge) / (e[k] - e[k + 1])
    return float(t[k] + frac * (t[k + 1] - t[k]))


def _number(name: str, value: object) -> float:
    """``value`` as a float, or :class:`ValidationError` naming ``name``.

    WHY: ``float()`` let its TypeError (``None``, a list), ValueError (``"x"``) and
    OverflowError (``10**400``) out of :func:`step_response` (a review).
    """
    try:
        return real_float(value)
    except (TypeError, ValueError, OverflowError) as err:
        msg = f"Expected `{name}` as a number, got {type(value).__name__} {value!r:.60}"
        raise ValidationError(msg) from err


def step_response(
    t: Any,
    y: Any,
    *,
    initial: float | None = None,
    final: float | None = None,
    rise_limits: Sequence[float] = (0.1, 0.9),
    settling_threshold: float = 0.02,
) -> StepResponse:
    r"""Rise time, settling time, overshoot, undershoot and peak of a measured step response.

    .. math::

        r(t) = \frac{y(t) - y_0}{y_f - y_0}, \quad
        t_r = t\{r = r_{hi}\} - t\{r = r_{lo}\}, \quad
        t_s = \inf\{\tau : |r(t) - 1| \le \varepsilon\ \forall t \ge \tau\}

    with crossing times interpolated linearly between samples. MATLAB ``stepinfo``'s
    definitions, relative to both values (MathWorks, *Control System Toolbox* reference);
    python-control's ``step_info`` reads them off the samples, relative to the final value
    only.

    Parameters
    ----------
    t : array_like, shape (N,), float64, seconds
        Strictly increasing sample times, ``N >= 2``; the step is applied at ``t[0]``.
    y : array_like, shape (N,), float64, the signal's unit
        The response.
    initial : float, optional
        Value before the step :math:`y_0`; default the first sample. MATLAB's
        ``stepinfo(y, t)`` takes 0 unless ``yinit`` is given; pass ``initial=0.0`` for its
        figures of a response that does not start at 0.
    final : float, optional
        Target :math:`y_f`; default the last sample. ``0.0`` is a value like any other.
    rise_limits : (float, float)
        Fractions of the step between which the rise time runs (10 % to 90 %).
    settling_threshold : float
        Half-width of the settling band as a fraction of :math:`|y_f - y_0|` (2 %).

    Returns
    -------
    StepResponse

    Raises
    ------
    ValidationError
        Shapes, non-finite values, times not strictly increasing, a zero step
        (``final == initial``), a sample past float64's range relative to the step, bad
        limits, an option that is not a number.

    Examples
    --------
    A first-order response from 5 to 6 with τ = 1 s: the rise time is τ ln 9 = 2.197 s.

    >>> t = np.linspace(0.0, 10.0, 10001)
    >>> info = step_response(t, 5.0 + (1.0 - np.exp(-t)), final=6.0)
    >>> round(info.rise_time_s, 4), round(info.settling_time_s, 4)  # ln 9, ln 50
    (2.1972, 3.912)
    """
    times = check_series("t", t, min_size=2, finite=True)
    values = check_series("y", y, min_size=2, finite=True)
    if times.shape != values.shape:
        msg = f"Expected `y` of shape {times.shape} like `t`, got shape {values.shape}"
        raise ValidationError(msg)
    steps = times[1:] > times[:-1]  # compared, not subtracted: np.diff overflowed past 1e308
    if not steps.all():
        i = int(np.flatnonzero(~steps)[0]) + 1
        now, before = float(times[i]), float(times[i - 1])
        msg = f"Expected `t` strictly increasing, got t[{i}] = {now!r} after {before!r}"
        raise ValidationError(msg)
    y0 = float(values[0]) if initial is None else _number("initial", initial)
    yf = float(values[-1]) if final is None else _number("final", final)
    threshold = _number("settling_threshold", settling_threshold)
    try:
        limits = tuple(real_float(v) for v in rise_limits)
    except (TypeError, ValueError, OverflowError) as err:  # "ab": a raw ValueError escaped
        msg = f"Expected `rise_limits` as two numbers (low, high), got {rise_limits!r:.60}"
        raise ValidationError(msg) from err
    if not (math.isfinite(y0) and math.isfinite(yf)):
        msg = f"Expected finite `initial` and `final`, got {y0!r} and {yf!r}"
        raise ValidationError(msg)
    if y0 == yf:
        msg = f"Expected a step: `final` {yf!r} equals `initial` {y0!r}"
        raise ValidationError(msg)
    if len(limits) != 2 or not 0.0 <= limits[0] < limits[1] <= 1.0:
        msg = f"Expected `rise_limits` (low, high) with 0 <= low < high <= 1, got {limits!r}"
        raise ValidationError(msg)
    if not (math.isfinite(threshold) and threshold > 0):
        msg = f"Expected `settling_threshold` finite and > 0, got {settling_threshold!r}"
        raise ValidationError(msg)
    if not math.isfinite(float(times[-1]) - float(times[0])):
        # The crossing times would be inf - inf; np.diff warned 'overflow' (a review).
        msg = (
            f"Expected `t` spanning less than float64's largest value (1.8e308 s), got "
            f"{float(times[0])!r} to {float(times[-1])!r}"
        )
        raise ValidationError(msg)
    with np.errstate(over="ignore"):  # a sample past float64 of its step: refused below
        if math.isfinite(yf - y0):
            r = (values - y0) / (yf - y0)
        else:  # a step past float64 (-1e308 to 1e308): halves, exactly, not an 'overflow'
            r = (values / 2.0 - y0 / 2.0) / (yf / 2.0 - y0 / 2.0)
    if not np.isfinite(r).all():
        # 1e300 beside a step of 1e-300 gave NumPy's overflow warning and an overshoot of
        # inf %, which StepResponse refuses
        i = int(np.flatnonzero(~np.isfinite(r))[0])
        msg = (
            f"Expected `y` within float64's range of its step, got y[{i}] = "
            f"{float(values[i])!r} beside a step of {yf - y0!r} (from {y0!r} to {yf!r})"
        )
        raise ValidationError(msg)
    rel = times - times[0]
    peak_index = int(np.argmax(r))
    return StepResponse(
        initial=y0,
        final=yf,
        steady_state=float(values[-1]),
        rise_time_s=_first_crossing(rel, r, limits[1]) - _first_crossing(rel, r, limits[0]),
        settling_time_s=_settling_time(rel, r, threshold),
        overshoot_pct=100.0 * max(0.0, float(r.max()) - 1.0),
        undershoot_pct=100.0 * max(0.0, -float(r.min())),
        peak=float(values[peak_index]),
        peak_time_s=float(rel[peak_index]),
        rise_limits=limits,
        settling_threshold=threshold,
        initial_given=initial is not None,
        final_given=final is not None,
        n=int(values.size),
    )


def command_step(t_command: Float64Array, command: Float64Array) -> int:
    """Return the index of the first point of a command's one step: its first new value.

    Parameters
    ----------
    t_command : ndarray, shape (N,), float64, seconds
        The command's times (for the errors' wording).
    command : ndarray, shape (N,), the signal's unit
        One value, then one other from the step to the end.

    Raises
    ------
    ValidationError
        No change, or a second one.
    """
    changed = np.flatnonzero(command != command[0])
    if changed.size == 0:
        msg = f"Expected a step in `command`, got {float(command[0])!r} throughout"
        raise ValidationError(msg)
    k = int(changed[0])
    final = float(command[k])
    again = np.flatnonzero(command[k:] != final)
    if again.size:
        j = k + int(again[0])
        msg = (
            f"Expected one step in `command` (from {float(command[0])!r} to {final!r} at "
            f"t = {float(t_command[k])!r} s), got {float(command[j])!r} at t_command[{j}] = "
            f"{float(t_command[j])!r} s"
        )
        raise ValidationError(msg)
    return k


def step_response_to_command(
    t_command: Any,
    command: Any,
    t_measured: Any,
    measured: Any,
    *,
    rise_limits: Sequence[float] = (0.1, 0.9),
    settling_threshold: float = 0.02,
    origin_s: float = 0.0,
) -> StepResponse:
    r"""Step figures of a measured response to a logged command holding one step.

    The command holds one value, then another from its first point at the new value
    :math:`t_s` to its end (a setpoint log). The figures are :func:`step_response`'s of the
    measured samples from :math:`t_s` to the command's last time, relative to the
    command's values before and after the step (``initial_given`` and ``final_given``:
    MATLAB ``stepinfo``'s ``yinit`` and ``yfinal``), with every time counted from
    :math:`t_s`: a loop's dead time :math:`L` is part of its peak and settling times, as in
    ``stepinfo`` of a system with a delay, but not of its rise time, the time between two
    crossings (a first-order loop: rise :math:`\tau \ln 9`, settling
    :math:`L + \tau \ln 50`).

    Parameters
    ----------
    t_command : array_like, shape (N,), float64, seconds
        Strictly increasing command times.
    command : array_like, shape (N,), the signal's unit
        Commanded values: one value, then one other from :math:`t_s` on.
    t_measured : array_like, shape (M,), float64, seconds
        Strictly increasing measurement times, same clock as ``t_command``.
    measured : array_like, shape (M,), the signal's unit
        The response; a non-finite sample (NaN: a dropout) is left out, as by
        :func:`~robot_msgs.control.tracking`.
    rise_limits, settling_threshold
        As for :func:`step_response`.
    origin_s : float, seconds
        The clock time ``t_command`` and ``t_measured`` are counted from, as for
        :func:`~robot_msgs.control.tracking`: errors say ``origin_s + t``.

    Returns
    -------
    StepResponse
        ``peak_time_s`` and ``settling_time_s`` counted from :math:`t_s` (the first
        measured sample may come after it).

    Raises
    ------
    ValidationError
        A command without a change or with a second one, fewer than two finite measured
        samples from :math:`t_s` to the command's end, or as :func:`step_response`.

    Examples
    --------
    A first-order response (τ = 0.5 s) to a step from 2 to 3 at t = 1 s, sampled every
    millisecond: rise time τ ln 9 = 1.0986 s, settling time τ ln 50 = 1.956 s.

    >>> t = np.arange(0.0, 8.0005, 0.001)
    >>> y = np.where(t < 1.0, 2.0, 3.0 - np.exp(-(t - 1.0) / 0.5))
    >>> info = step_response_to_command([0.0, 1.0, 8.0], [2.0, 3.0, 3.0], t, y)
    >>> round(info.rise_time_s, 4), round(info.settling_time_s, 3), info.overshoot_pct
    (1.0986, 1.956, 0.0)
    """
    tc = check_series("t_command", t_command, min_size=2, increasing=True)
    cmd = check_series("command", command, min_size=2, finite=True)
    if cmd.shape != tc.shape:
        msg = f"Expected `command` of shape {tc.shape} like `t_command`, got shape {cmd.shape}"
        raise ValidationError(msg)
    clock = _number("origin_s", origin_s)
    if not math.isfinite(clock):
        msg = f"Expected `origin_s` as finite seconds, got {origin_s!r:.60}"
        raise ValidationError(msg)
    k = command_step(tc + clock if clock else tc, cmd)  # tc + clock: its errors' wording
    final = float(cmd[k])
    tm = check_series("t_measured", t_measured, min_size=1, increasing=True)
    y = check_series("measured", measured, min_size=1)
    if y.shape != tm.shape:
        msg = f"Expected `measured` of shape {tm.shape} like `t_measured`, got shape {y.shape}"
        raise ValidationError(msg)
    t_step = float(tc[k])
    # A non-finite sample is one the logger missed (a dropout, as tracking() takes it):
    # left out, the crossings are interpolated between the samples there are.
    after = (tm >= t_step) & (tm <= tc[-1]) & np.isfinite(y)
    if int(after.sum()) < 2:
        msg = (
            f"Expected at least 2 measured samples from the step at t = {clock + t_step!r} s "
            f"to the command's end at {clock + float(tc[-1])!r} s, got {int(after.sum())}"
        )
        raise ValidationError(msg)
    times = tm[after]
    info = step_response(
        times,
        y[after],
        initial=float(cmd[0]),
        final=final,
        rise_limits=rise_limits,
        settling_threshold=settling_threshold,
    )
    late = float(times[0]) - t_step  # step_response counts from the first sample
    if late == 0.0:
        return info
    return info.replace(
        peak_time_s=info.peak_time_s + late, settling_time_s=info.settling_time_s + late
    )
