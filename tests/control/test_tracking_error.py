"""tracking / joint_tracking: the resampling rule, hand-computed errors and integrals."""

from __future__ import annotations

import math
import tracemalloc
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.control import joint_tracking, step_response_to_command, tracking
from robot_msgs.control.tracking_error import seconds_after
from robot_msgs.errors import AssociationError, ValidationError
from robot_msgs.sensor import JointState
from robot_msgs.std import Duration, Header, Time
from robot_msgs.trajectory import JointTrajectory, JointTrajectoryPoint


def test_constant_lag_behind_a_ramp_hand_computed() -> None:
    # Command u = t on [0, 2]; measured t - 0.1 at 0.5, 1.0, 1.5 (2.5 is after the span).
    # e = 0.1 at each matched stamp; IAE over [0.5, 1.5] = 0.1 · 1 s; ISE = 0.01 · 1 s;
    # ITAE = ∫0^1 τ · 0.1 dτ = 0.05 (t0 = first matched stamp).
    result = tracking([0.0, 2.0], [0.0, 2.0], [0.5, 1.0, 1.5, 2.5], [0.4, 0.9, 1.4, 2.4])
    s = result.stats["channel_0"]
    assert s.n == 3
    assert s.mean == pytest.approx(0.1)
    assert s.rms == pytest.approx(0.1)
    assert s.iae == pytest.approx(0.1)
    assert s.ise == pytest.approx(0.01)
    assert s.itae == pytest.approx(0.05)
    assert result.metric == "tracking"
    assert result.counts == {"commanded": 2, "measured": 4, "matched": 3}
    assert result.parameters["resampling"] == "command linearly interpolated"
    assert result.parameters["time_base"] == "measured stamps within the command span"
    assert result.parameters["error"] == "commanded - measured"
    assert "1 of 4 measured samples lie outside the command span" in result.notes[0]


def test_itae_from_the_step_weighs_each_channel_from_its_own_step_by_hand() -> None:
    """Two channels held (zero-order hold), stepping at 1 s and at 2 s; the output stays
    0 and has an offset of -0.5 before either step (errors 0.5 there). Errors at t = 0..4:
    a = [0.5, 1, 1, 1, 1], b = [0.5, 0.5, 2, 2, 2]. ITAE from each step, by hand, weights
    max(t - t_s, 0): a [0, 0, 1, 2, 3] -> (0 + 0)/2 + (0 + 1)/2 + (1 + 2)/2 + (2 + 3)/2
    = 4.5; b [0, 0, 0, 2, 4] (x 2 for |e| = 2 after its step) -> (0 + 2)/2 + (2 + 4)/2 = 4.
    The samples before the step are not weighted negatively, nor at all. A delay d moves
    the step as the error sees it to t_s + d."""
    t = [0.0, 1.0, 2.0, 3.0, 4.0]
    cmd = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 2.0], [1.0, 2.0]])
    tc = [0.0, 1.0, 2.0, 4.0]
    meas = np.full((5, 2), -0.5)
    meas[1:, 0] = 0.0
    meas[2:, 1] = 0.0
    result = tracking(
        tc, cmd, t, meas, channels=["a", "b"], interpolation="previous", itae_from="step"
    )
    assert (result.stats["a"].itae, result.stats["b"].itae) == (4.5, 4.0)
    assert result.parameters["itae_from"] == "the command's step"
    start = tracking(tc, cmd, t, meas, interpolation="previous")
    assert "itae_from" not in start.parameters
    assert start.stats["channel_0"].itae == (0 + 1) / 2 + (1 + 2) / 2 + (2 + 3) / 2 + (3 + 4) / 2
    with pytest.raises(ValidationError, match=r"Expected `itae_from` in \('start', 'step'\)"):
        tracking(tc, cmd, t, meas, itae_from="first")  # type: ignore[arg-type]
    with pytest.raises(
        ValidationError,
        match=r"^Expected a step in `command`, got 0\.0 throughout - at channel 'b' "
        r"\(itae_from='step'\)$",
    ):
        tracking(tc, cmd * [1.0, 0.0], t, meas, channels=["a", "b"], itae_from="step")
    # Delayed by 1 s (the span [1, 5] s), channel a's step is seen at 2 s: by hand
    # r(t - 1) - y(t) at t = 1..4 is [0, 1, 1, 1], weights [0, 0, 1, 2]: ITAE
    # (0 + 0)/2 + (0 + 1)/2 + (1 + 2)/2 = 2.
    late = tracking(
        tc, cmd, t, meas, channels=["a", "b"], interpolation="previous", itae_from="step",
        delay_s=1.0,
    )  # fmt: skip
    assert late.stats["a"].itae == 2.0


def test_a_setpoint_log_written_on_change_is_held_with_interpolation_previous() -> None:
    # Setpoint 0 from 0 s, 1 from 2 s (logged on change, one heartbeat at 4 s); the output
    # stays 0. Held: errors 0, 0, 1, 1, 1 at 0..4 s, IAE (trapezoids) 0 + 0.5 + 1 + 1 = 2.5,
    # ITAE of τ|e| = 0, 0, 2, 3, 4: 0 + 1 + 2.5 + 3.5 = 7. Read linearly the step ramped
    # over [0, 2] s (error 0.5 at 1 s): IAE 3.0.
    t = [0.0, 1.0, 2.0, 3.0, 4.0]
    held = tracking([0.0, 2.0, 4.0], [0.0, 1.0, 1.0], t, np.zeros(5), interpolation="previous")
    assert held.signals[0].series is not None
    assert held.signals[0].series.errors.tolist() == [0.0, 0.0, 1.0, 1.0, 1.0]
    s = held.stats["channel_0"]
    assert (s.iae, s.ise, s.itae) == (2.5, 2.5, 7.0)
    assert held.parameters["resampling"] == "command held from its last point (zero-order hold)"
    linear = tracking([0.0, 2.0, 4.0], [0.0, 1.0, 1.0], t, np.zeros(5)).stats["channel_0"]
    assert linear.iae == 3.0


def _trapezoid_lagging(t: Any) -> Any:
    """r(t - 0.25) of the command r: 0 -> 1 on [0, 1] s, 1 on [1, 2] s, 1 -> 0 on [2, 3] s,
    0 before it (the loop at rest until its command reaches it), by hand."""
    s = np.asarray(t) - 0.25
    return np.select([s < 0, s < 1, s < 2], [0.0, s, 1.0], 3.0 - s)


def test_delay_scores_a_response_that_lags_by_its_dead_time() -> None:
    """y(t) = r(t - 0.25) at stamps k/16 s (exact in binary, as are the breakpoints).

    With ``delay_s=0.25`` the error is none: the command read at t - 0.25 s is y, and the
    span [0.25, 3.25] s holds stamps 4..52 (49 of 53). Without it, by hand over the span
    [0, 3] s (stamps 0..48): e = r(t) - y(t) is t on [0, 0.25], 0.25 to 1, 1.25 - t to
    1.25, 0 to 2, 2 - t to 2.25, -0.25 to 3; |e| is linear between stamps, so the
    trapezoids are exact: IAE = 3 (0.25² / 2) + 2 (0.75 · 0.25) = 15/32.
    """
    t = np.arange(53) / 16
    t_cmd, cmd = [0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 1.0, 0.0]
    y = _trapezoid_lagging(t)
    late = tracking(t_cmd, cmd, t, y, delay_s=0.25)
    s = late.stats["channel_0"]
    assert (s.n, s.max_abs, s.iae, s.ise) == (49, 0.0, 0.0, 0.0)
    assert late.counts == {"commanded": 4, "measured": 53, "matched": 49}
    assert late.parameters["delay_s"] == 0.25
    assert "command span [0.25, 3.25] s (delayed by delay_s = 0.25 s)" in late.notes[0]
    plain = tracking(t_cmd, cmd, t, y)
    assert plain.stats["channel_0"].iae == 15 / 32
    assert plain.counts["matched"] == 49
    assert "delay_s" not in plain.parameters  # as results saved before it existed
    # A setpoint log held (zero-order): the step from 0 to 1 at 1 s, seen 0.25 s late.
    held = tracking([0.0, 1.0, 3.0], [0.0, 1.0, 1.0], t, (t >= 1.25) * 1.0, delay_s=0.25,
                    interpolation="previous")  # fmt: skip
    assert held.stats["channel_0"].max_abs == 0.0
    # Without the delay the held step is missed on [1, 1.25) s: 4 stamps of error 1, and
    # the trapezoids of the two ramps at its ends, IAE = 3/16 + 2 (1/16) / 2 = 0.25.
    missed = tracking([0.0, 1.0, 3.0], [0.0, 1.0, 1.0], t, (t >= 1.25) * 1.0,
                      interpolation="previous")  # fmt: skip
    assert missed.stats["channel_0"].iae == 0.25


@pytest.mark.parametrize(
    "delay",
    [-0.25, -0.0 - 1e-300, float("nan"), float("inf"), "0.25", True, 10**400],
    ids=["negative", "below -0.0", "nan", "inf", "text", "bool", "10**400"],
)
def test_delay_not_finite_seconds_at_least_0_is_refused_naming_it(delay: Any) -> None:
    """10**400: float() let its OverflowError out (a review)."""
    with pytest.raises(ValidationError, match=r"Expected `delay_s` as finite seconds >= 0, got"):
        tracking([0.0, 1.0], [0.0, 1.0], [0.5], [0.5], delay_s=delay)


@pytest.mark.parametrize("interpolation", ["linear", "previous"])
@pytest.mark.parametrize("delay", [0.1, 1e-9])
def test_delay_at_epoch_stamps_is_read_as_exactly_as_near_zero(
    interpolation: Literal["linear", "previous"], delay: float
) -> None:
    """A ramp of slope 1/s commanded at 1.7e9 + k s (k = 0..8), measured at 1.7e9 + k/16 s
    (exact in binary) as y = (t - 1.7e9) - d, the command d late: by hand e = 0 (held:
    floor(t - 1.7e9 - d) - y, d - 1 at whole seconds). The command's times + d rounded d
    to the stamps' 2**-22 s grid: e = 9.5e-8 for d = 0.1 (0.1 read as 0.09999990463 s),
    and d = 1e-9 was lost whole (e = 1e-9 and the holds a second late, though parameters
    said the delay). Held with d = 0.1 is the control: no stamp lies within the rounding
    of a hold's boundary."""
    t0 = 1.7e9
    k = np.arange(2, 129)
    t = t0 + k / 16
    y = k / 16 - delay  # nearest floats to the exact values
    result = tracking(t0 + np.arange(9.0), np.arange(9.0), t, y, delay_s=delay,
                      interpolation=interpolation)  # fmt: skip
    series = result.signals[0].series
    assert series is not None
    # Inside [t0 + d, t0 + 8 + d]: k = 2..128, all of them; the stamps as measured.
    assert np.array_equal(series.stamps_s, t)
    if interpolation == "linear":
        assert result.stats["channel_0"].max_abs < 1e-14
    else:
        whole = k % 16 == 0  # t - d just below a whole second: held from the one before
        np.testing.assert_allclose(series.errors[whole], delay - 1.0, rtol=1e-12)
        hand = np.floor(k / 16 - delay) - y
        np.testing.assert_allclose(series.errors, hand, rtol=0, atol=1e-14)


def test_origin_s_says_clock_times_and_integrates_the_times_as_given() -> None:
    """Times counted from origin_s = 1700000000 s: a command of 1 over [0.25, 2.25] s,
    measured at 0, 0.5, ..., 2.5 s as 0.5 except a dropout at 2 s. By hand: 4 samples
    within (0.5 ... 2.0), e = 0.5, the interval before the dropout left out, so
    IAE = 2 x 0.5 x 0.5 = 0.5 and ITAE = 0.5 x 0.5 x (0 + 0.5 + 0.5 + 1)/2 = 0.25 (t
    from the first matched sample).
    The notes, the errors and the stamps say the clock's times, 1700000000.25 s and on,
    where without origin_s they said 0.25 s; the statistics are those of the times as
    given, which origin_s + t (2.4e-7 s apart) would round."""
    origin = 1_700_000_000.0
    t = np.arange(6) * 0.5
    y = np.array([0.5, 0.5, 0.5, 0.5, np.nan, 0.5])
    result = tracking([0.25, 2.25], [1.0, 1.0], t, y, origin_s=origin)
    plain = tracking([0.25, 2.25], [1.0, 1.0], t, y)
    s = result.stats["channel_0"]
    assert (s.n, s.iae, s.itae) == (3, 0.5, 0.25)
    assert result.stats == plain.stats
    series = result.signals[0].series
    assert series is not None
    assert series.stamps_s.tolist() == [origin + 0.5, origin + 1.0, origin + 1.5, origin + 2.0]
    assert result.notes == (
        (
            "2 of 6 measured samples lie outside the command span [1700000000.25, "
            "1700000002.25] s and were left out"
        ),
        (
            "channel 'channel_0': 1 of 4 matched samples not finite (no measurement), left "
            "out; its iae/ise/itae integrate the 1 s of the 1.5 s span between two measured "
            "samples and leave the other 0.5 s out; its final is the error at t = "
            "1700000001.5 s, the last measured sample, not at the span's end (1700000002.0 s)"
        ),
    )
    said = (
        r"^No measured stamp lies within the command span \[1700000010.0, 1700000011.0\] s "
        r"\(measured span \[1700000000.0, 1700000002.5\] s\): are both on the same clock\?$"
    )
    with pytest.raises(AssociationError, match=said):
        tracking([10.0, 11.0], [1.0, 1.0], t, y, origin_s=origin)


def test_a_command_of_two_steps_is_refused_at_its_time_on_the_clock() -> None:
    """With origin_s, the step's errors say the clock's times, as the notes do: they
    said the times counted from it (1.0 s for 1700000001.0 s)."""
    said = r"got 2\.0 at t_command\[2\] = 1700000002\.0 s"
    t, y = np.arange(4) * 1.0, np.zeros(4)
    with pytest.raises(ValidationError, match=said):
        tracking(t[:3], [0.0, 1.0, 2.0], t, y, itae_from="step", origin_s=1.7e9)
    with pytest.raises(ValidationError, match=said):
        step_response_to_command(t[:3], [0.0, 1.0, 2.0], t, y, origin_s=1.7e9)
    few = r"from the step at t = 1700000003\.0 s to the command's end at 1700000004\.0 s, got 1"
    with pytest.raises(ValidationError, match=few):
        step_response_to_command([0.0, 3.0, 4.0], [0.0, 1.0, 1.0], t, y, origin_s=1.7e9)
    with pytest.raises(ValidationError, match=r"^Expected `origin_s` as finite seconds"):
        step_response_to_command([0.0, 3.0], [0.0, 1.0], t, y, origin_s=math.nan)


@pytest.mark.parametrize("origin", [math.nan, math.inf, "0", True, 10**400])
def test_origin_s_not_finite_seconds_is_refused_naming_it(origin: Any) -> None:
    with pytest.raises(ValidationError, match=r"^Expected `origin_s` as finite seconds, got "):
        tracking([0.0, 1.0], [0.0, 1.0], [0.5], [0.5], origin_s=origin)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=8),
    st.integers(-(2**63), 2**63 - 1),
)
def test_seconds_after_is_the_float_nearest_the_exact_difference(
    stamps: list[int], origin: int
) -> None:
    """Python divides integers correctly rounded: the law, vectorised below 2^53 ns."""
    # within 2^52 ns of the origin too, as int64 stamps
    near = [min(max(origin + (k >> 11), -(2**63)), 2**63 - 1) for k in stamps]
    for given_ns in (stamps, near):
        assert seconds_after(given_ns, origin).tolist() == [(k - origin) / 10**9 for k in given_ns]


def test_delay_past_the_measured_span_is_said_with_the_delay() -> None:
    with pytest.raises(AssociationError, match=r"\[10.0, 11.0\] s \(delayed by delay_s = 10.0 s\)"):
        tracking([0.0, 1.0], [0.0, 1.0], [0.5], [0.5], delay_s=10.0)


@pytest.mark.parametrize("origin_s", [0.0, 1.7e9])
@pytest.mark.parametrize("interpolation", ["linear", "previous"])
def test_tracking_holds_few_arrays_of_the_measured_size(
    interpolation: Literal["linear", "previous"], origin_s: float
) -> None:
    """Epoch stamps at 1 kHz, commanded at every one: the peak beyond the inputs, in arrays
    of the measured size, was 7.9 with the channels' commands read and stacked at once
    (a copy held beside the errors) and the command's steps copied by np.diff; 5.9 one
    channel at a time and the steps looked at only for a span past float64. Counted from
    an ``origin_s`` (``track``'s), 6.93: the stamps on the clock were made beside the
    times while the statistics were computed; 6.25 made after them, then copied by the
    series that took them (writable); 5.93 kept, as without an origin (seen failing
    before, 6.25)."""
    n = 200_000
    t = (0.0 if origin_s else 1.7e9) + np.arange(n) / 1000.0
    command, measured = np.sin(np.arange(n) * 1e-3), np.zeros(n)
    tracemalloc.start()
    try:
        tracking(t, command, t, measured, interpolation=interpolation, origin_s=origin_s)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak / measured.nbytes < 6.1


def test_an_unknown_interpolation_is_refused_naming_the_choices() -> None:
    with pytest.raises(
        ValidationError, match=r"Expected `interpolation` in \('linear', 'previous'\)"
    ):
        tracking([0.0, 1.0], [0.0, 1.0], [0.5], [0.4], interpolation="nearest")  # type: ignore[arg-type]


def test_non_finite_measurements_nan_and_both_infinities_are_left_out_as_missing() -> None:
    """The docstring said NaN samples are left out; ±inf are too (error_stats leaves out
    every non-finite error): errors 0.1, -inf, inf, NaN, 0.1 count 2 samples of 0.1."""
    t = [0.5, 0.75, 1.0, 1.25, 1.5]
    measured = [0.4, np.inf, -np.inf, np.nan, 1.4]  # command u = t: error u - y
    s = tracking([0.0, 2.0], [0.0, 2.0], t, measured).stats["channel_0"]
    assert s.n == 2
    assert (s.mean, s.min, s.max) == pytest.approx((0.1, 0.1, 0.1))


def test_a_measurement_dropout_is_said_with_the_time_the_integrals_cover() -> None:
    """Errors 1, 1, NaN, 1, 1 at 0..4 s: the trapezoids of the two intervals with both ends
    measured, [0, 1] and [3, 4] s, give IAE 2 (by hand), where the 4 s span's is 4; the
    result said nothing of the 2 s left out."""
    result = tracking([0.0, 4.0], [1.0, 1.0], [0.0, 1.0, 2.0, 3.0, 4.0], [0, 0, np.nan, 0, 0])
    s = result.stats["channel_0"]
    assert (s.n, s.iae, s.ise, s.itae) == (4, 2.0, 2.0, 4.0)  # ITAE: (0+1)/2 + (3+4)/2
    assert result.notes == (
        (
            "channel 'channel_0': 1 of 5 matched samples not finite (no measurement), left "
            "out; its iae/ise/itae integrate the 2 s of the 4 s span between two measured "
            "samples and leave the other 2 s out"
        ),
    )


def test_a_first_order_response_missing_every_tenth_sample_says_8_of_10_s() -> None:
    """A first-order step response (tau 1 s) on a 1 ms grid over 10 s, samples 5, 15, 25...
    lost: each loss takes its two 1 ms intervals out of the integrals, 1000 x 2 ms = 2 s
    (by hand). Its IAE reads 0.80 where the whole response's is 1 - e^-10 = 0.99995: the
    result said nothing of the 20 % left out."""
    t = np.linspace(0.0, 10.0, 10001)
    y = 1.0 - np.exp(-t)
    y[5::10] = np.nan
    result = tracking([0.0, 10.0], [1.0, 1.0], t, y, channels="x", units="m")
    assert result.stats["x"].iae == pytest.approx(0.8, abs=1e-3)
    assert result.notes == (
        (
            "channel 'x': 1000 of 10001 matched samples not finite (no measurement), left "
            "out; its iae/ise/itae integrate the 8 s of the 10 s span between two measured "
            "samples and leave the other 2 s out"
        ),
    )


def test_a_channel_never_measured_twice_in_a_row_says_why_its_integrals_are_nan() -> None:
    """Errors NaN, 1, NaN: no interval has both ends measured (IAE NaN, by the seed page's
    rule); one matched sample has no interval at all. Neither result said why."""
    gaps = tracking([0.0, 2.0], [1.0, 1.0], [0.0, 1.0, 2.0], [np.nan, 0.0, np.nan])
    assert np.isnan(gaps.stats["channel_0"].iae)
    assert gaps.notes == (
        (
            "channel 'channel_0': 2 of 3 matched samples not finite (no measurement), left "
            "out; no interval has both ends measured: its iae/ise/itae are NaN; its final "
            "is the error at t = 1.0 s, the last measured sample, not at the span's end "
            "(2.0 s)"
        ),
    )
    one = tracking([0.0, 2.0], [1.0, 1.0], [1.0, 3.0], [0.0, 0.0])
    assert np.isnan(one.stats["channel_0"].iae)
    assert one.notes[-1] == (
        "one measured sample lies within the command span: no interval, so iae/ise/itae are NaN"
    )


def test_channels_and_units_per_channel() -> None:
    t = np.linspace(0.0, 1.0, 5)
    cmd = np.stack([t, 2 * t], axis=1)
    meas = cmd + np.array([0.0, -0.5])  # channel b overshoots the command by 0.5
    result = tracking(t, cmd, t, meas, channels=["a", "b"], units={"a": "m", "b": "rad"})
    assert result.stats["a"].max_abs == 0.0
    assert result.stats["b"].mean == pytest.approx(0.5)
    assert dict(result.units) == {"a": "m", "b": "rad"}


def test_no_overlap_raises_association_error() -> None:
    with pytest.raises(
        AssociationError, match=r"No measured stamp lies within the command span \[0.0, 1.0\]"
    ):
        tracking([0.0, 1.0], [0.0, 1.0], [5.0, 6.0], [0.0, 0.0])


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (
            ([0.0, 1.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]),
            {},
            r"`t_measured` finite and strictly increasing, got t_measured\[1\]",
        ),
        (
            ([0.0, 1.0], [[0.0, 0.0], [1.0, 1.0]], [0.0], [0.0]),
            {},
            r"`measured` with 2 channel\(s\) like `command`, got 1",
        ),
        (
            ([0.0, 1.0], [0.0, 1.0, 2.0], [0.0], [0.0]),
            {},
            r"`command` of shape \(2,\) or \(2, C\), got shape \(3,\)",
        ),
        (  # an int past float64: NumPy's OverflowError escaped (a review)
            ([0.0, 1.0], [0.0, 10**400], [0.0], [0.0]),
            {},
            r"Expected `command` as numbers, got list",
        ),
        (
            ([0.0, 1.0], [0.0, np.nan], [0.0], [0.0]),
            {},
            r"finite `command`, got a non-finite value in row 1",
        ),
        (
            ([0.0, 1.0], [0.0, 1.0], [0.0], [0.0]),
            {"channels": ["a", "b"]},
            r"1 distinct channel names",
        ),
        (
            ([0.0, 1.0], [0.0, 1.0], [0.0], [0.0]),
            {"units": {"x": "m"}},
            r"no unit .* for 'channel_0'|none for 'channel_0'",
        ),
    ],
)
def test_bad_input_raises(
    args: tuple[list[float] | list[list[float]], ...], kwargs: dict[str, Any], match: str
) -> None:
    with pytest.raises(ValidationError, match=match):
        tracking(*args, **kwargs)


def _command(start_sec: int = 100) -> JointTrajectory:
    return JointTrajectory(
        header=Header(stamp=Time(sec=start_sec)),
        joint_names=("shoulder", "elbow"),
        points=(
            JointTrajectoryPoint(positions=(0.0, 0.0), time_from_start=Duration(sec=0)),
            JointTrajectoryPoint(positions=(1.0, -1.0), time_from_start=Duration(sec=1)),
        ),
    )


def _states(offset_s: float = 100.0) -> list[JointState]:
    # Listed elbow-first on purpose; measured shoulder = command - 0.05, elbow = command exactly.
    return [
        JointState(
            header=Header(stamp=Time.from_s(offset_s + k / 4)),
            name=("elbow", "shoulder"),
            position=(-k / 4, k / 4 - 0.05),
        )
        for k in range(5)
    ]


def test_joint_tracking_matches_joints_by_name_and_uses_header_stamps() -> None:
    result = joint_tracking(_command(), _states())
    assert list(result.stats) == ["shoulder", "elbow"]
    assert result.stats["shoulder"].mean == pytest.approx(0.05)
    assert result.stats["shoulder"].iae == pytest.approx(0.05)  # 0.05 over 1 s
    assert result.stats["elbow"].max_abs == pytest.approx(0.0, abs=1e-12)
    assert dict(result.units) == {"shoulder": "rad", "elbow": "rad"}
    assert result.parameters["field"] == "position"
    assert result.parameters["interpolation"] == "linear between points"


def test_joint_tracking_scores_states_a_dead_time_late() -> None:
    """States that follow the command 0.25 s late, at 100 + k/4 s: with delay_s=0.25 the
    span is [100.25, 101.25] s, stamps k = 1..5, and each state is its command then."""
    states = [
        JointState(
            header=Header(stamp=Time.from_s(100.0 + k / 4)),
            name=("shoulder", "elbow"),
            position=(max(k / 4 - 0.25, 0.0), -max(k / 4 - 0.25, 0.0)),
        )
        for k in range(6)
    ]
    result = joint_tracking(_command(), states, delay_s=0.25)
    assert result.counts["matched"] == 5
    assert [s.max_abs for s in result.stats.values()] == [0.0, 0.0]
    assert result.parameters["delay_s"] == 0.25
    assert result.parameters["field"] == "position"
    # Without it, stamps k = 0..4: the shoulder lags by 0.25 rad from k = 1, IAE by hand
    # 0.25 (0 + 0.25) / 2 + 3 (0.25 · 0.25) = 0.21875.
    assert joint_tracking(_command(), states).stats["shoulder"].iae == 0.21875


def test_joint_tracking_start_s_overrides_a_zero_stamp() -> None:
    # The refusal names the way out: ROS stamps a command 0 to mean "start now" (a review).
    with pytest.raises(
        AssociationError, match=r"same clock\?; the command is stamped 0.*`start_s`"
    ):
        joint_tracking(_command(start_sec=0), _states())
    result = joint_tracking(_command(start_sec=0), _states(), start_s=100.0)
    assert result.counts["matched"] == 5


def test_joint_tracking_start_s_is_the_nanosecond_nearest_its_value() -> None:
    """``round(start_s * 1e9)`` rounded twice: 1700000000.1234567 s (the float
    1700000000.1234567165...) gave ...123456768 ns, 51 ns late, so a state stamped at the
    start fell before it and was dropped (rv1's finding). Its nearest ns is ...123456717."""
    start_s = 1700000000.1234567
    start_ns = 1_700_000_000_123_456_717  # Fraction(start_s) * 10**9, rounded by hand
    states = [
        state.replace(header=Header(stamp=Time.from_ns(start_ns + k * 250_000_000)))
        for k, state in enumerate(_states())
    ]
    result = joint_tracking(_command(start_sec=0), states, start_s=start_s)
    assert result.counts["matched"] == 5


def test_joint_tracking_names_the_state_out_of_order() -> None:
    """It said `t_measured[1] = 0.0`, tracking()'s own name, relative to the command (a review)."""
    states = _states()
    states[1], states[2] = states[2], states[1]
    with pytest.raises(
        ValidationError, match=r"increasing `header.stamp` order, got states\[2\] at 100.25 s"
    ):
        joint_tracking(_command(), states)


def test_joint_tracking_missing_joint_or_field_raises() -> None:
    states = _states()
    states[2] = states[2].replace(name=("elbow", "wrist"))
    with pytest.raises(ValidationError, match=r"joint 'shoulder' in `states\[2\]\.name`"):
        joint_tracking(_command(), states)
    with pytest.raises(
        ValidationError, match=r"`command.points\[0\].velocities` for field 'velocity'"
    ):
        joint_tracking(_command(), _states(), field="velocity")
    with pytest.raises(ValidationError, match=r"`field` in \('position', 'velocity', 'effort'\)"):
        joint_tracking(_command(), _states(), field="torque")
    with pytest.raises(ValidationError, match=r"at least one JointState"):
        joint_tracking(_command(), [])


def test_joint_tracking_refuses_a_command_whose_times_do_not_increase() -> None:
    command = _command()
    points = (command.points[0], command.points[1].replace(time_from_start=Duration(sec=0)))
    with pytest.raises(ValidationError, match=r"`command.points\[1\].time_from_start` after 0.0 s"):
        joint_tracking(command.replace(points=points), _states())


def test_joint_tracking_reads_a_command_time_as_its_nearest_float() -> None:
    """(sec * 10**9 + nanosec) * 1e-9 rounded twice: 0.507069464 s read 0.5070694640000001
    (hmsg's finding beside Duration.to_s); the time is the integer nanoseconds over 10**9."""
    command = _command()
    late = Duration(nanosec=507_069_464)
    points = (
        command.points[0].replace(time_from_start=late),
        command.points[1].replace(time_from_start=late),
    )
    with pytest.raises(ValidationError, match=r"after 0\.507069464 s .*, got 0\.507069464 s$"):
        joint_tracking(command.replace(points=points), _states())


@pytest.mark.parametrize(
    "start_s",
    [float("nan"), float("inf"), 1e300, "100", 10**400, -(10**400)],
    ids=["nan", "inf", "1e300", "text", "10**400", "-10**400"],
)
def test_joint_tracking_refuses_a_start_that_is_not_finite_seconds(start_s: object) -> None:
    """round(nan * 1e9) let its ValueError out, inf and 1e300 an OverflowError, "100" a
    TypeError (a review); 10**400 float()'s OverflowError, as delay_s's (a review)."""
    with pytest.raises(ValidationError, match=r"^Expected `start_s` as finite seconds, got "):
        joint_tracking(_command(start_sec=0), _states(), start_s=start_s)  # type: ignore[arg-type]


def test_joint_tracking_takes_a_float32_start_as_its_value() -> None:
    """np.float32(100.0) * 1e9 was rounded in float32 (100000002048 ns): one state fell
    before the command and the shoulder's mean came out 0.050002 (a review). Hand: the
    shoulder lags the command by 0.05 rad at all 5 states."""
    stats = joint_tracking(_command(start_sec=0), _states(), start_s=np.float32(100.0)).stats
    assert stats["shoulder"].n == 5
    assert stats["shoulder"].mean == pytest.approx(0.05, abs=1e-12)


def test_tracking_options_of_the_wrong_kind_are_validation_errors() -> None:
    """units=5 let "argument of type 'int' is not iterable" out, field=['position'] an
    unhashable-type TypeError, and a state naming a joint twice gave the last of its two
    values in silence (a review)."""
    with pytest.raises(ValidationError, match=r"`units` as a str or a mapping .*got 5"):
        tracking([0.0, 1.0], [0.0, 1.0], [0.5], [0.0], units=5)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"`field` in .*got \['position'\]"):
        joint_tracking(_command(), _states(), field=["position"])  # type: ignore[arg-type]
    states = _states()
    states[1] = states[1].replace(name=("shoulder", "shoulder"))
    with pytest.raises(
        ValidationError, match=r"joint names used once in `states\[1\]\.name`, got 'shoulder' twice"
    ):
        joint_tracking(_command(), states)


def test_an_error_past_float64_is_refused_not_left_out_as_missing() -> None:
    """1e308 commanded against -1e308 measured overflowed with a warning (an error where
    warnings are), and otherwise gave an inf error that error_stats leaves out: a huge
    error said as no data; a command from -1e308 to 1e308 interpolated to NaN (a review)."""
    with pytest.raises(
        ValidationError, match=r"within float64, got none for channel 'channel_0' at t = 0\.5 s"
    ):
        tracking([0.0, 1.0], [1e308, 1e308], [0.5], [-1e308])
    with pytest.raises(ValidationError, match=r"\(measured 0\.0\)"):
        tracking([0.0, 1.0], [-1e308, 1e308], [0.5], [0.0])


def test_joint_tracking_keeps_a_state_stamped_at_the_commands_last_point() -> None:
    """The command's times are the nearest floats to their nanoseconds (Duration.to_s), so
    the states' are too: as (ns - start) * 1e-9, a state at the last point, 0.507069464 s
    after the start, was 0.5070694640000001 s, past the command's end, and left out.

    By hand: the command goes from 0 at 0 s to 1 at 0.507069464 s and the states stand on
    it at 0 s, half way and the end, so all three are compared and every error is 0.
    """
    ns = 507_069_464
    command = JointTrajectory(
        header=Header(stamp=Time(sec=100)),
        joint_names=("elbow",),
        points=(
            JointTrajectoryPoint(positions=(0.0,), time_from_start=Duration(sec=0)),
            JointTrajectoryPoint(positions=(1.0,), time_from_start=Duration(nanosec=ns)),
        ),
    )
    states = [
        JointState(header=Header(stamp=Time(sec=100, nanosec=k)), name=("elbow",), position=(p,))
        for k, p in ((0, 0.0), (ns // 2, 0.5), (ns, 1.0))
    ]
    stats = joint_tracking(command, states).stats["elbow"]
    assert stats.n == 3
    assert stats.max_abs == 0.0


def test_command_times_further_apart_than_float64_are_refused_not_read_as_flat() -> None:
    # A command from 0 at -1e308 s to 1 at 1e308 s is 0.5 at 0 s; np.interp's slope over
    # the inf gap is 0, so it read 0 and a measured 0.5 (error 0) gave an error of -0.5.
    with pytest.raises(
        ValidationError, match=r"`t_command` steps within float64.*t_command\[1\] = 1e\+308"
    ):
        tracking([-1e308, 1e308], [0.0, 1.0], [0.0], [0.5])


def test_command_times_further_apart_than_float64_are_read_when_held() -> None:
    # A held command reads no slope: 0 until 1e308 s, whatever the step's length.
    held = tracking([-1e308, 1e308], [0.0, 1.0], [0.0, 1e308], [0.5, 1.0], interpolation="previous")
    assert held.signals[0].series is not None
    assert held.signals[0].series.errors.tolist() == [-0.5, 0.0]
    # Steps within float64 over a span past it are read linearly: 1 at 0 s.
    linear = tracking([-1e308, 0.0, 1e308], [0.0, 1.0, 2.0], [0.0], [1.0])
    assert linear.stats["channel_0"].max_abs == 0.0


def test_a_complex_measurement_or_command_is_refused_not_cut_to_its_real_part() -> None:
    """measured = [1+1j, 1] gave errors (0, 2) from its real parts, in silence (or NumPy's
    ComplexWarning escaped where warnings are errors); a list of complex was refused."""
    with pytest.raises(ValidationError, match=r"Expected `measured` as real numbers, got dtype"):
        tracking([0.0, 1.0], [1.0, 3.0], [0.0, 1.0], np.array([1.0 + 1.0j, 1.0]))
    with pytest.raises(ValidationError, match=r"Expected `command` as real numbers, got dtype"):
        tracking([0.0, 1.0], np.array([[1.0 + 0.0j], [3.0]]), [0.0, 1.0], [1.0, 1.0])


def test_numeric_text_as_a_signal_is_refused_not_parsed() -> None:
    """tracking of command ['0', '1'] read the strings as numbers."""
    with pytest.raises(ValidationError, match=r"Expected `command` as numbers, got ndarray"):
        tracking([0.0, 1.0], np.array(["0", "1"]), [0.0], [0.0])


def test_one_channel_name_as_a_str_names_the_one_channel() -> None:
    """channels="elbow" was split into letters: refused for one channel as 'Expected 1
    distinct channel names, got ['e', 'l', 'b', 'o', 'w']', and for five channels taken
    as five names."""
    result = tracking([0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 0.5], channels="elbow")
    assert list(result.stats) == ["elbow"]
    assert result.stats["elbow"].max_abs == 0.5  # hand: |1.0 - 0.5| at t = 1
    with pytest.raises(
        ValidationError, match=r"Expected 5 distinct channel names, got \['elbow'\]"
    ):
        tracking([0.0, 1.0], np.zeros((2, 5)), [0.0], np.zeros((1, 5)), channels="elbow")


@pytest.mark.parametrize(
    ("channels", "got"), [(5, "int 5"), (b"ab", "bytes b'ab'"), ([1, 2], "list \\[1, 2\\]")]
)
def test_channels_that_are_not_names_are_refused_naming_channels(
    channels: object, got: str
) -> None:
    """channels=5 let Python's TypeError out; [1, 2] was refused at `Signal.name`."""
    with pytest.raises(ValidationError, match=rf"Expected `channels` as .*, got {got}"):
        tracking([0.0, 1.0], np.zeros((2, 2)), [0.0], np.zeros((1, 2)), channels=channels)  # type: ignore[arg-type]


@pytest.mark.parametrize("at_s", [2**23, 1_700_000_000, 2**33, 9_223_372_036 - 1])
def test_seconds_after_is_pythons_division_at_every_nanosecond_near_a_float_boundary(
    at_s: int,
) -> None:
    """Every stamp within 10^5 ns of 2^23 s (where the vectorised far conversion begins),
    of today, of 2^33 s and of int64's last whole second, either sign, from 0: the float
    nearest the exact difference, as Python divides the integers (a step either side of
    a change of float step is where a correction by half a step can go wrong)."""
    ns = np.arange(at_s * 10**9 - 10**5, min(at_s * 10**9 + 10**5, 2**63 - 1), dtype=np.int64)
    for sign in (1, -1):
        assert seconds_after(sign * ns, 0).tolist() == [sign * k / 10**9 for k in ns.tolist()]
    assert seconds_after(ns, -(2**62)).tolist() == [(k + 2**62) / 10**9 for k in ns.tolist()]
