"""Tracking error of a control loop: commanded against measured, one ``ErrorStats`` per channel.

The resampling rule, stated once and recorded in every result's ``parameters``: the time base
is the **measured** stamps that lie within the command's time span (inclusive); the command
is **linearly interpolated** at those stamps, or with ``interpolation="previous"`` **held**
from its last point at or before each (zero-order hold); the error is ``commanded -
measured`` (the control error ``e = r - y``). Measured samples before the first or after
the last command point are left out and counted, never extrapolated. With a transport
delay ``delay_s = d`` the command is read at ``t - d`` (``e(t) = r(t - d) - y(t)``): its
times are shifted by ``d``, so its span too, and ``parameters["delay_s"]`` says ``d``.
WHY the measured
stamps: they are when the loop's output was actually observed, and interpolating the
(smooth, planned) command is far less wrong than interpolating a noisy measurement. WHY
the hold: a setpoint log is piecewise constant, and one written when the setpoint changes
(0 at 0 s, 1 at 2 s, 1 at 8 s) read linearly ramps the step over the 2 s before it: the
IAE of a second-order response (ωn = 2 rad/s, ζ = 0.3) to that step was 2.147 where it is
1.152 (a walk). ``iae``, ``ise`` and ``itae`` are then integrals over the matched stamps;
``itae`` weighs each error by the time since the first of them, or with
``itae_from="step"`` since the command's one step as the error sees it (its first point at
the new value, plus ``delay_s``), and not before it: the textbook and MATLAB ITAE of a step
response, ∫ t |e(t)| dt with t = 0 at the step. WHY: a step at 1 s in a log from 0 s
weighted the whole response by one second more than the textbook does; a first-order
error e^{-(t - 1)/τ} after a step at 1 s had an ITAE of τ² + τ where it is τ² (a walk).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.signal import Signal
from robot_msgs.control.step import command_step
from robot_msgs.errors import AssociationError, ValidationError
from robot_msgs.series import check_series, real_array

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.sensor import JointState
    from robot_msgs.trajectory import JointTrajectory
    from robot_msgs.typing import BoolArray, Float64Array, Int64Array

__all__ = ["joint_tracking", "tracking"]

_SETTINGS = {
    "time_base": "measured stamps within the command span",
    "resampling": "command linearly interpolated",
    "error": "commanded - measured",
}
#: ``parameters["resampling"]`` for each ``interpolation`` of :func:`tracking`.
_RESAMPLING = {
    "linear": _SETTINGS["resampling"],
    "previous": "command held from its last point (zero-order hold)",
}
_DEFAULT_UNITS = {"position": "rad", "velocity": "rad/s", "effort": "N·m"}
_COMMAND_FIELD = {"position": "positions", "velocity": "velocities", "effort": "effort"}


def _signal(name: str, value: Any, n: int) -> Float64Array:
    arr = real_array(name, value)
    if arr.ndim not in (1, 2) or arr.shape[0] != n or arr.size == 0:
        msg = f"Expected `{name}` of shape ({n},) or ({n}, C), got shape {arr.shape}"
        raise ValidationError(msg)
    return arr.reshape(n, -1)


def _seconds(value: object) -> float:
    """``value`` as a float when it is a real number (not a bool), else NaN: refused by callers.

    WHY: ``float(10**400)`` let its OverflowError out of the checks of ``delay_s`` and
    ``start_s`` (a review); past float64 it is infinite, which they refuse by name.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return math.nan
    try:
        return float(value)
    except OverflowError:  # an int past float64
        return math.inf if value > 0 else -math.inf


def _channel_names(channels: Sequence[str] | str | None, n_channels: int) -> list[str]:
    """Return the channels' names: ``channels`` listed, one str as one name, or defaults.

    WHY: ``list("elbow")`` is five letters: ``channels="elbow"`` named five channels.
    """
    if channels is None:
        return [f"channel_{i}" for i in range(n_channels)]
    if isinstance(channels, str):
        return [channels]
    given: object = channels  # from callers without a type checker, anything
    names = list(given) if isinstance(given, Iterable) and not isinstance(given, bytes) else None
    if names is None or not all(isinstance(name, str) for name in names):
        got = f"{type(channels).__name__} {channels!r:.60}"
        msg = f"Expected `channels` as a channel name or names (str), got {got}"
        raise ValidationError(msg)
    return names


def _units_for(channels: Sequence[str], units: str | Mapping[str, str]) -> dict[str, str]:
    if isinstance(units, str):
        return dict.fromkeys(channels, units)
    if not isinstance(units, Mapping):  # units=5: TypeError "argument of type 'int'" escaped
        msg = f"Expected `units` as a str or a mapping of channel to unit, got {units!r:.60}"  # type: ignore[unreachable]
        raise ValidationError(msg)
    missing = [c for c in channels if c not in units]
    if missing:
        msg = f"Expected a unit for every channel, got none for {missing[0]!r}"
        raise ValidationError(msg)
    return {c: units[c] for c in channels}


def _errors(
    tc: Float64Array,
    cmd: Float64Array,
    t: Float64Array,
    meas: Float64Array,
    inside: BoolArray,
    interpolation: str,
) -> list[Float64Array]:
    """Return ``commanded - measured`` at the stamps ``t``, ``meas``'s rows ``inside``, per channel.

    WHY one channel at a time: the command read at every stamp for all channels at once
    (a stack of the channels' interpolations) was one more array of the measured size
    held beside the errors, 80 MB at 10^7 samples (a review).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        if interpolation == "previous":  # the last point at or before each stamp
            held = np.searchsorted(tc, t, side="right") - 1
            return [cmd[held, c] - meas[inside, c] for c in range(cmd.shape[1])]
        return [np.interp(t, tc, cmd[:, c]) - meas[inside, c] for c in range(cmd.shape[1])]


def _dropout_note(name: str, t: Float64Array, missing: BoolArray, origin: float) -> str:
    """Say how many of a channel's errors are missing and what time its integrals cover.

    WHY: the integrals are trapezoids over the intervals whose both ends were measured
    (``ErrorStats``' seed page), so a dropout leaves its two intervals out: a first-order
    response (τ = 1 s, 1 ms samples) missing every tenth sample had an IAE of 0.80 where
    its whole span's is 1.00, and the result said nothing of the 2 s of 10 s left out.
    A dropout at the end makes ``final`` the error at the last measured sample, which
    the note then says with its time: the table's ``final`` read as the error at the
    end of the span (a walk).

    Parameters
    ----------
    name : str
        The channel.
    t : ndarray, shape (M,), float64, seconds
        The matched stamps, counted from ``origin``.
    missing : ndarray, shape (M,), bool
        Where the channel's error is not finite.
    origin : float, seconds
        What ``t`` is counted from (the stamps are ``origin + t``).
    """
    head = (
        f"channel {name!r}: {int(missing.sum())} of {missing.size} matched samples not "
        "finite (no measurement), left out; "
    )
    tail = ""
    if missing[-1] and not missing.all():
        last = int(np.flatnonzero(~missing)[-1])
        tail = (
            f"; its final is the error at t = {origin + float(t[last])!r} s, the last "
            f"measured sample, not at the span's end ({origin + float(t[-1])!r} s)"
        )
    both = ~missing[:-1] & ~missing[1:]
    if not both.any():
        return f"{head}no interval has both ends measured: its iae/ise/itae are NaN{tail}"
    with np.errstate(over="ignore"):  # stamps further apart than float64: said as inf s
        covered = float(np.sum((t[1:] - t[:-1])[both]))
        span = float(t[-1] - t[0])
    return (
        f"{head}its iae/ise/itae integrate the {covered:.6g} s of the {span:.6g} s span "
        f"between two measured samples and leave the other {span - covered:.6g} s out{tail}"
    )


def _on_clock(signal: Signal, stamps: Float64Array) -> Signal:
    """Return ``signal`` with ``stamps`` (shape ``(N,)``, seconds on the clock) as its series'.

    Its statistics stay those of the times it was built on, counted from an origin.
    """
    if signal.series is None or signal.series.stamps_s is stamps:
        return signal
    return signal.replace(series=signal.series.replace(stamps_s=stamps))


def tracking(
    t_command: Any,
    command: Any,
    t_measured: Any,
    measured: Any,
    *,
    channels: Sequence[str] | str | None = None,
    units: str | Mapping[str, str] = "",
    estimate: str = "",
    reference: str = "",
    interpolation: Literal["linear", "previous"] = "linear",
    delay_s: float = 0.0,
    itae_from: Literal["start", "step"] = "start",
    origin_s: float = 0.0,
) -> Comparison:
    r"""Compare a commanded signal with the measured one, channel by channel.

    .. math:: e_c(t_k) = \mathrm{interp}(t_k - d;\ t^{cmd}, u_c) - y_c(t_k),
        \qquad t_k - d \in [t^{cmd}_0, t^{cmd}_{N-1}]

    Parameters
    ----------
    t_command : array_like, shape (N,), float64, seconds
        Strictly increasing command times.
    command : array_like, shape (N,) or (N, C)
        Commanded values, one column per channel.
    t_measured : array_like, shape (M,), float64, seconds
        Strictly increasing measurement times, same clock as ``t_command``.
    measured : array_like, shape (M,) or (M, C)
        Measured values; a non-finite one (NaN, ±inf: no measurement) is left out of the
        statistics by ``error_stats``, as missing, and the two intervals beside it out of
        the integrals: a note says the time they still cover.
    channels : sequence of str, or str, optional
        Channel names (one str: the one channel's), default ``"channel_0"``,
        ``"channel_1"``...
    units : str or mapping
        One unit for all channels, or one per channel name.
    estimate, reference : str
        Names recorded in the result (what was measured, what was commanded).
    interpolation : {"linear", "previous"}
        How the command is read between its points: ``"linear"`` (a planned, smooth
        command) or ``"previous"``, each point's value held until the next (a setpoint
        log, piecewise constant: one written only when the setpoint changes). Either
        way the span ends at the last command point: a log written on change needs a
        point at the end of the test, or the response after its last change is left out.
    delay_s : float, seconds, >= 0
        The loop's known transport (dead) time ``d``: the measured value at ``t`` is
        scored against the command at ``t - d``, and the span is the command's shifted
        by ``d``. Recorded in ``parameters`` when not 0.
    itae_from : {"start", "step"}
        What ``itae`` times each error from: the first matched stamp, or each channel's
        command step (:func:`~robot_msgs.control.step.command_step`: a command holding one
        value, then another) read at ``t - d``, so at :math:`t_s + d`, with weight 0
        before it. ``"step"`` is recorded in ``parameters["itae_from"]``.
    origin_s : float, seconds
        The clock time ``t_command`` and ``t_measured`` are counted from: the notes,
        errors and the signals' stamps say times on the clock, ``origin_s + t``, and the
        integrals are of the times as given. WHY: stamps since 1970 as float64 seconds
        are 2.4e-7 s apart; counted from a time near them (:func:`seconds_after`) they
        keep their nanoseconds, and the integrals theirs (``robot-msgs track``).

    Returns
    -------
    Comparison
        ``metric="tracking"``; one signal per channel, named by it: the errors at the
        matched times and their statistics (:func:`~robot_msgs.compare.error_stats`, so
        ``iae``/``ise``/``itae`` are filled); ``parameters`` records the resampling rule;
        ``counts`` the commanded, measured and matched samples; ``notes`` the measured
        samples left out (outside the span; per channel, those not finite and the seconds
        its integrals cover) and integrals that are NaN for want of an interval.

    Raises
    ------
    ValidationError
        Shapes, channel counts, times not finite and strictly increasing, command times
        further apart than float64 holds (read linearly), an error past float64
        (where a sample was measured), ``delay_s`` not finite and >= 0, or with
        ``itae_from="step"`` a channel's command without one step.
    AssociationError
        No measured stamp within the command span.

    Examples
    --------
    A ramp command, measured 0.1 rad behind at 4 stamps (one after the command ends):

    >>> result = tracking([0.0, 2.0], [0.0, 2.0], [0.5, 1.0, 1.5, 2.5], [0.4, 0.9, 1.4, 2.4],
    ...                   channels=["joint_1"], units="rad")
    >>> s = result.stats["joint_1"]
    >>> round(s.mean, 12), s.n, round(s.iae, 12), result.counts["matched"]
    (0.1, 3, 0.1, 3)

    The same measurement scored against the command 0.1 s earlier (the ramp is 0.1 rad
    lower there): no error, over the span [0.1, 2.1] s, which holds the same 3 samples.

    >>> late = tracking([0.0, 2.0], [0.0, 2.0], [0.5, 1.0, 1.5, 2.5], [0.4, 0.9, 1.4, 2.4],
    ...                 delay_s=0.1)
    >>> late.stats["channel_0"].max_abs < 1e-15, late.counts["matched"], late.parameters["delay_s"]
    (True, 3, 0.1)
    """
    if not isinstance(interpolation, str) or interpolation not in _RESAMPLING:
        msg = f"Expected `interpolation` in {tuple(_RESAMPLING)}, got {interpolation!r:.60}"
        raise ValidationError(msg)
    if not isinstance(itae_from, str) or itae_from not in ("start", "step"):
        msg = f"Expected `itae_from` in ('start', 'step'), got {itae_from!r:.60}"
        raise ValidationError(msg)
    delay = _seconds(delay_s)
    if not 0.0 <= delay < math.inf:
        msg = f"Expected `delay_s` as finite seconds >= 0, got {delay_s!r:.60}"
        raise ValidationError(msg)
    clock = _seconds(origin_s)
    if not math.isfinite(clock):
        msg = f"Expected `origin_s` as finite seconds, got {origin_s!r:.60}"
        raise ValidationError(msg)
    tc = check_series("t_command", t_command, min_size=1, increasing=True)
    tm = check_series("t_measured", t_measured, min_size=1, increasing=True)
    given = tc  # the command's times as given, which step errors name
    with np.errstate(over="ignore"):
        # A step past float64 lies within a span past it: the steps are looked at only
        # then, not copied for every command (np.diff's float64 copy was one more array of
        # the series' size, 80 MB at 10^7 points; a review).
        spans_float64 = interpolation == "linear" and not np.isfinite(tc[-1] - tc[0])
        gaps = np.diff(tc) if spans_float64 else np.zeros(0)
    if not np.isfinite(gaps).all():
        # np.interp's slope over such a gap is 0: a command from 0 at -1e308 s to 1 at
        # 1e308 s read 0 at 0 s, where it is 0.5, and a measured 0.5 (error 0) gave an
        # error of -0.5 (a walk). A held command has no slope: it is read as it is.
        i = int(np.flatnonzero(~np.isfinite(gaps))[0]) + 1
        msg = (
            f"Expected `t_command` steps within float64 (1.8e308 s), got t_command[{i}] = "
            f"{float(tc[i])!r} after {float(tc[i - 1])!r}"
        )
        raise ValidationError(msg)
    origin = 0.0  # the command's (shifted) times and the measured ones are counted from it
    if delay:
        # The command read at t - d is the command with its times shifted by d: one road,
        # whatever the interpolation. Counted from the first command time when the shifted
        # span lies within twice it, as epoch stamps' does: tc + d rounded d to the
        # stamps' grid (2.4e-7 s at 1.7e9 s), an error of 4.8e-8 on a ramp of slope 1/s
        # read exactly without a delay (a review). Every measured time within that span
        # is then within a factor 2 of the origin, so its difference to it is exact
        # (Sterbenz) and so is adding the origin back. A shift that merges two times
        # (1e-30 s apart beside 1 s) or leaves float64 is refused as such times would be.
        first = float(tc[0])
        if first > 0.0 and float(tc[-1]) + delay < 2.0 * first:
            origin = first
        with np.errstate(over="ignore"):
            tc = check_series("t_command + delay_s", (tc - origin) + delay, increasing=True)
    cmd = _signal("command", command, tc.size)
    meas = _signal("measured", measured, tm.size)
    if cmd.shape[1] != meas.shape[1]:
        want, got = cmd.shape[1], meas.shape[1]
        msg = f"Expected `measured` with {want} channel(s) like `command`, got {got}"
        raise ValidationError(msg)
    n_channels = cmd.shape[1]
    names = _channel_names(channels, n_channels)
    if len(names) != n_channels or len(set(names)) != len(names):
        msg = f"Expected {n_channels} distinct channel names, got {names!r}"
        raise ValidationError(msg)
    bad = np.flatnonzero(~np.isfinite(cmd).all(axis=1))
    if bad.size:
        msg = f"Expected finite `command`, got a non-finite value in row {int(bad[0])}"
        raise ValidationError(msg)
    steps: list[float | None] = [None] * n_channels  # each channel's ITAE origin, seconds
    for c, name in enumerate(names if itae_from == "step" else ()):
        try:
            k = command_step(given + clock if clock else given, cmd[:, c])  # its wording
        except ValidationError as err:
            msg = f"{err} - at channel {name!r} (itae_from='step')"
            raise ValidationError(msg) from err
        steps[c] = float(tc[k])  # the step as the error sees it, at t_s + d (from origin)
    with np.errstate(over="ignore"):
        tq = tm - origin if origin else tm  # the measured times, counted as the command's
    inside = (tq >= tc[0]) & (tq <= tc[-1])
    clock += origin  # what the times are counted from, on the clock: said in the notes
    span = f"[{clock + float(tc[0])!r}, {clock + float(tc[-1])!r}] s"
    if delay:
        span += f" (delayed by delay_s = {delay!r} s)"
    matched = int(inside.sum())
    if matched == 0:
        msg = (
            f"No measured stamp lies within the command span {span} (measured span "
            f"[{origin_s + float(tm[0])!r}, {origin_s + float(tm[-1])!r}] s): are both on "
            "the same clock?"
        )
        raise AssociationError(msg)
    t = tq[inside]
    del tq  # one array of the measured size less held from here
    unit_of = _units_for(names, units)
    # Past float64 (a command from -1e308 to 1e308, a 1e308 error) the interpolation is
    # NaN and the difference inf, which error_stats leaves out as missing: a warning where
    # warnings are errors, or a huge error said as no data (a review). Refused instead.
    errors = _errors(tc, cmd, t, meas, inside, interpolation)
    dropouts: list[str] = []
    for name, error, c in zip(names, errors, range(n_channels), strict=True):
        missing = ~np.isfinite(error)
        if not missing.any():
            continue
        lost = missing & np.isfinite(meas[inside, c])
        if lost.any():
            k = int(np.flatnonzero(lost)[0])
            msg = (
                f"Expected commanded - measured within float64, got none for channel "
                f"{name!r} at t = {clock + float(t[k])!r} s "
                f"(measured {float(meas[inside, c][k])!r})"
            )
            raise ValidationError(msg)
        dropouts.append(_dropout_note(name, t, missing, clock))
    # Integrated over the times counted from the origin, which keep what the clock's
    # float64 seconds lose; the series' stamps are then on the clock (exactly so for the
    # delay's origin, the note above), made after the statistics: made before, they were
    # held beside the times while those were computed (a peak of 6.93 arrays of the
    # measured size, 6.25 so; 5.94 without an origin). New and ours, they are made
    # read-only: the series keep them uncopied (writable, copied: 6.25, now 5.93).
    signals = tuple(
        Signal.of(name, unit_of[name], error, stamps_s=t, itae_from_s=step)
        for name, error, step in zip(names, errors, steps, strict=True)
    )
    stamps = t
    if clock:
        stamps = t + clock
        stamps.setflags(write=False)
    signals = tuple(_on_clock(signal, stamps) for signal in signals)
    notes: list[str] = []
    if matched < tm.size:
        notes.append(
            f"{tm.size - matched} of {tm.size} measured samples lie outside the command span "
            f"{span} and were left out"
        )
    if matched == 1:
        notes.append(
            "one measured sample lies within the command span: no interval, so iae/ise/itae are NaN"
        )
    notes += dropouts
    return Comparison(
        metric="tracking",
        signals=signals,
        parameters={
            **_SETTINGS,
            "resampling": _RESAMPLING[interpolation],
            **({"delay_s": delay} if delay else {}),
            **({"itae_from": "the command's step"} if itae_from == "step" else {}),
        },
        estimate=estimate,
        reference=reference,
        counts={"commanded": int(tc.size), "measured": int(tm.size), "matched": matched},
        notes=tuple(notes),
    )


def joint_tracking(
    command: JointTrajectory,
    states: Sequence[JointState],
    *,
    field: str = "position",
    start_s: float | None = None,
    units: str | Mapping[str, str] | None = None,
    estimate: str = "",
    reference: str = "",
    delay_s: float = 0.0,
) -> Comparison:
    """Compare a commanded ``JointTrajectory`` with the ``JointState`` messages measured.

    Command point ``i`` is due at ``start + time_from_start[i]``, where ``start`` is
    ``command.header.stamp`` (or ``start_s`` when given: ROS uses a zero stamp for "start
    now"); each state's time is its ``header.stamp``. Joints are matched by name, in the
    command's order, so states may list them in any order. Then :func:`tracking` applies,
    with the same resampling rule (linear interpolation of the command between its points,
    not the spline a ROS controller may use) recorded in ``parameters`` plus ``field``.

    Parameters
    ----------
    command : JointTrajectory
        Every point has ``field``'s values (``positions`` for ``"position"``).
    states : sequence of JointState
        In strictly increasing stamp order; each names every commanded joint and has
        ``field``'s values.
    field : {"position", "velocity", "effort"}
    start_s : float, optional
        When the command started, seconds on the states' clock.
    units : str or mapping, optional
        Default by field: rad, rad/s, N·m (revolute joints; pass ``"m"`` etc. for prismatic).
    delay_s : float, seconds, >= 0
        The loop's transport delay, as for :func:`tracking`.

    Raises
    ------
    ValidationError
        An unknown field, a point or state without the field's values, a state missing a
        commanded joint (naming the state index and the joint), no states.
    AssociationError
        No state stamp within the command span.

    Examples
    --------
    >>> from robot_msgs.sensor import JointState
    >>> from robot_msgs.std import Duration, Header, Time
    >>> from robot_msgs.trajectory import JointTrajectory, JointTrajectoryPoint
    >>> cmd = JointTrajectory(
    ...     header=Header(stamp=Time(sec=100)),
    ...     joint_names=("elbow",),
    ...     points=(
    ...         JointTrajectoryPoint(positions=(0.0,), time_from_start=Duration(sec=0)),
    ...         JointTrajectoryPoint(positions=(1.0,), time_from_start=Duration(sec=1)),
    ...     ),
    ... )
    >>> states = [
    ...     JointState(header=Header(stamp=Time.from_s(100.0 + k / 4)), name=("elbow",),
    ...                position=(k / 4 - 0.05,))
    ...     for k in range(5)
    ... ]
    >>> s = joint_tracking(cmd, states).stats["elbow"]
    >>> s.n, round(s.mean, 12), round(s.iae, 12)
    (5, 0.05, 0.05)
    """
    if not isinstance(field, str) or field not in _COMMAND_FIELD:  # a list: TypeError
        msg = f"Expected `field` in {tuple(_COMMAND_FIELD)}, got {field!r}"
        raise ValidationError(msg)
    if start_s is not None and not math.isfinite(_seconds(start_s) * 1e9):
        # round(nan * 1e9) let its ValueError out, inf its OverflowError, "x" a TypeError
        msg = f"Expected `start_s` as finite seconds, got {start_s!r:.60}"
        raise ValidationError(msg)
    if not states:
        msg = "Expected at least one JointState in `states`, got none"
        raise ValidationError(msg)
    points = command.points
    if not points:
        msg = "Expected at least one point in `command.points`, got none"
        raise ValidationError(msg)
    joints = list(command.joint_names)
    point_field = _COMMAND_FIELD[field]
    values = []
    for i, point in enumerate(command.points):
        row = getattr(point, point_field)
        if not row:
            msg = f"Expected `command.points[{i}].{point_field}` for field {field!r}, got none"
            raise ValidationError(msg)
        values.append(row)
    # The nanosecond nearest start_s: `round(start_s * 1e9)` rounded twice, 51 ns off at
    # 1.7e9 s (a review); the float's exact value times 10**9 rounds once.
    start_ns = (
        command.header.stamp.to_ns() if start_s is None else round(Fraction(float(start_s)) * 10**9)
    )
    # Seconds from the command start: the nearest float to the integer nanoseconds.
    t_cmd = [p.time_from_start.to_s() for p in command.points]
    for i in range(1, len(t_cmd)):
        if t_cmd[i] <= t_cmd[i - 1]:
            msg = (
                f"Expected `command.points[{i}].time_from_start` after {t_cmd[i - 1]!r} s "
                f"(a command is interpolated between increasing times), got {t_cmd[i]!r} s"
            )
            raise ValidationError(msg)
    stamps_ns, measured = joint_samples(states, joints, field)
    # As the command's times: the nearest float to the integer nanoseconds. Times
    # * 1e-9 put a state stamped at the command's last point 1 ulp past it, and out
    # of the comparison (0.5070694640000001 s after 0.507069464 s; a review).
    t_meas = seconds_after(stamps_ns, start_ns)
    # Said of the messages: tracking() named its own `t_measured[1]`, relative to the
    # command's start, for states out of order (a review).
    back = np.flatnonzero(t_meas[1:] <= t_meas[:-1])
    if back.size:
        k = int(back[0]) + 1
        msg = (
            f"Expected `states` in increasing `header.stamp` order, got states[{k}] at "
            f"{states[k].header.stamp.to_s()!r} s after states[{k - 1}] at "
            f"{states[k - 1].header.stamp.to_s()!r} s"
        )
        raise ValidationError(msg)
    try:
        result = tracking(
            t_cmd,
            np.array(values, dtype=np.float64).reshape(len(values), len(joints)),
            t_meas,
            measured,
            channels=joints,
            units=_DEFAULT_UNITS[field] if units is None else units,
            estimate=estimate,
            reference=reference,
            delay_s=delay_s,
        )
    except AssociationError as err:
        if start_s is not None or command.header.stamp.to_ns() != 0:
            raise
        msg = (
            f"{err}; the command is stamped 0, which in ROS means 'start now': give "
            "`start_s`, when it started on the states' clock"
        )
        raise AssociationError(msg) from err
    parameters = {**result.parameters, "field": field, "interpolation": "linear between points"}
    return result.replace(parameters=parameters)


def joint_samples(
    states: Iterable[JointState], joints: Sequence[str], field: str
) -> tuple[list[int], Float64Array]:
    """Return each state's stamp and its ``field`` values of ``joints``, matched by name.

    The one reading of ``JointState`` messages into channels (:func:`joint_tracking`'s,
    and ``robot-msgs track``'s of a bag's topic): states may list the joints in any
    order and list others too. ``states`` is read once, one state at a time, into
    arrays. WHY: ``track`` listed a bag's 10^6 messages (6 joints) to pass them here:
    1.77 GB resident for 56 MB of values; an iterator of them is now read as it comes.

    Parameters
    ----------
    states : iterable of JointState
    joints : sequence of str
        The joints to read, in the columns' order.
    field : {"position", "velocity", "effort"}

    Returns
    -------
    stamps_ns : list of int, nanoseconds
        Each state's ``header.stamp``, shape ``(S,)``.
    values : ndarray, shape (S, len(joints)), float64
        The values as sent (NaN and inf included).

    Raises
    ------
    ValidationError
        A state without ``field``'s values, one naming a joint twice or missing one of
        ``joints`` (naming the state's index and the joint).

    Examples
    --------
    >>> from robot_msgs.sensor import JointState
    >>> from robot_msgs.std import Header, Time
    >>> states = [
    ...     JointState(header=Header(stamp=Time(sec=1)), name=("b", "a"), position=(2.0, 1.0)),
    ...     JointState(header=Header(stamp=Time(sec=2)), name=("a", "b"), position=(3.0, 4.0)),
    ... ]
    >>> stamps_ns, values = joint_samples(iter(states), ["a", "b"], "position")
    >>> stamps_ns, values.tolist()
    ([1000000000, 2000000000], [[1.0, 2.0], [3.0, 4.0]])
    """
    flat = array("d")
    stamps_ns: list[int] = []
    names: tuple[str, ...] | None = None
    columns: list[int] = []  # where each of ``joints`` is in ``names``
    for k, state in enumerate(states):
        row = getattr(state, field)
        if not row:
            msg = f"Expected `states[{k}].{field}` values, got none"
            raise ValidationError(msg)
        if state.name != names:  # most messages name the joints as the one before
            index = {name: j for j, name in enumerate(state.name)}
            if len(index) != len(state.name):  # the last of two took the joint, in silence
                twice = next(n for i, n in enumerate(state.name) if n in state.name[:i])
                msg = f"Expected joint names used once in `states[{k}].name`, got {twice!r} twice"
                raise ValidationError(msg)
            missing = [joint for joint in joints if joint not in index]
            if missing:
                msg = f"Expected joint {missing[0]!r} in `states[{k}].name`, got {state.name!r}"
                raise ValidationError(msg)
            names, columns = state.name, [index[joint] for joint in joints]
        flat.extend([row[j] for j in columns])
        stamps_ns.append(state.header.stamp.to_ns())
    values = np.frombuffer(flat, dtype=np.float64) if flat else np.empty(0)
    return stamps_ns, values.reshape(len(stamps_ns), len(joints))


def seconds_after(stamps_ns: Sequence[int] | Int64Array, origin_ns: int) -> Float64Array:
    """Return each stamp's seconds after ``origin_ns``: the float nearest the exact difference.

    The one conversion of integer stamps to the times :func:`tracking` integrates over
    (:func:`joint_tracking`'s, and ``robot-msgs track``'s of a bag or a CSV log of
    decimal seconds). The difference is taken in integers, then divided once: exact where
    it is below 2^53 ns (104 days); beyond, whole seconds and nanoseconds apart, summed
    and corrected to the nearest float (:func:`_far_seconds`), as Python divides
    integers (a bag's stamps since 1970, ``seconds_after(ns, 0)``). WHY: float64
    seconds since 1970 are 2.4e-7 s apart, and trapezoids over them put the IAE of a
    first-order response (τ = 0.5 s, 1 ms samples, stamps near 1.7e9 s) 1.5e-7 to
    2.3e-7 relative off its closed form, the ISE twice that (measured); counted from
    the first stamp, 4e-17.

    Parameters
    ----------
    stamps_ns : sequence of int or ndarray, shape (N,), int64, nanoseconds
    origin_ns : int, nanoseconds

    Returns
    -------
    ndarray, shape (N,), float64, seconds

    Examples
    --------
    >>> stamp = 1_700_000_000_123_456_789
    >>> seconds_after([stamp, stamp + 1], stamp - 789).tolist()
    [7.89e-07, 7.9e-07]
    >>> seconds_after([stamp], 0).tolist()  # past 2^53 ns: Python's division
    [1700000000.1234567]
    """
    ns = np.asarray(stamps_ns, dtype=np.int64)
    if ns.size == 0:
        return np.zeros(0)
    if not -(2**63) <= origin_ns < 2**63:
        return np.array([(k - origin_ns) / 10**9 for k in ns.tolist()], dtype=np.float64)
    farthest = max(abs(int(ns.max()) - origin_ns), abs(int(ns.min()) - origin_ns))
    if farthest < 2**53:
        # Both exact floats (the difference below 2^53, 1e9), one correctly rounded division.
        out: Float64Array = (ns - np.int64(origin_ns)).astype(np.float64) / 1e9
        return out
    return _far_seconds(ns, origin_ns)


def _far_seconds(ns: Int64Array, origin_ns: int) -> Float64Array:
    """:func:`seconds_after` of int64 stamps, some 2^53 ns or more from an int64 ``origin_ns``.

    With ``s`` whole seconds and ``r`` nanoseconds apart (``0 <= r < 10^9``, ``|s| < 2^35``):
    for ``|s| < 2^23`` the difference ``s 10^9 + r`` is below 2^53, so exact, and divided
    once. Beyond, ``x = s + r / 1e9`` is within a float step of the exact
    ``v = s + r 10^-9`` (two roundings); ``(x - s) 1e9 - r`` is then ``(x - v) 10^9``
    exactly (``|x| > 2^22``: x's step is at least 2^-30, so ``x - s``, at most 1, has at
    most 31 bits, times 1e9 at most 52), and x moves a step where v lies past half of one.
    No v is a tie: a midpoint between floats from 2^22 to 2^35 is an odd multiple of
    2^-31 to 2^-18, and v is dyadic only as a multiple of 2^-9. WHY: Python's division
    per stamp (a bag's stamps since 1970, read for ``robot-msgs track``) took 0.34 s per
    10^6 stamps; this 0.055 s (measured).
    """
    origin_s, origin_r = divmod(origin_ns, 10**9)
    whole, part = np.divmod(ns, np.int64(10**9))
    whole -= np.int64(origin_s)
    part -= np.int64(origin_r)
    borrow = part < 0
    whole -= borrow
    part += borrow * np.int64(10**9)
    small = np.abs(whole) < 2**23
    exact = (np.where(small, whole, 0) * np.int64(10**9) + part).astype(np.float64) / 1e9
    near = whole.astype(np.float64)
    x = near + part.astype(np.float64) / 1e9
    off = (x - near) * 1e9 - part.astype(np.float64)  # (x - v) 10^9, exactly
    up, down = np.nextafter(x, np.inf), np.nextafter(x, -np.inf)
    x = np.where(2.0 * off < -(up - x) * 1e9, up, np.where(2.0 * off > (x - down) * 1e9, down, x))
    out: Float64Array = np.where(small, exact, x)
    return out
