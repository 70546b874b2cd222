"""Dimensionless jerk and LDLJ: the reference's published doctest values, and properties.

Reference: siva82kb/smoothness, ``smoothness.py`` (Balasubramanian's implementation for
Balasubramanian et al., J. NeuroEng. Rehabil. 12:112, 2015), whose doctests state, for
``t = np.arange(-1, 1, 0.01); move = np.exp(-5 * t**2); fs = 100``:

    dimensionless_jerk(move, fs=100.)      -> -335.746837033
    log_dimensionless_jerk(move, fs=100.)  -> -5.81635741476

(printed to 12 significant digits, so they are checked to within 1e-11 relative).
SPARC, from the same reference, is tested in ``test_sparc.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.metrics import (
    LogDimensionlessJerk,
    dimensionless_jerk,
    log_dimensionless_jerk,
    sparc,
    speed_from_positions,
)

T = np.arange(-1, 1, 0.01)
GAUSSIAN = np.exp(-5 * T**2)
PUBLISHED_DJ = -335.746837033
PUBLISHED_LDLJ = -5.81635741476


def test_dimensionless_jerk_reproduces_the_reference_doctest_value() -> None:
    assert float(dimensionless_jerk(GAUSSIAN, 100.0)) == pytest.approx(PUBLISHED_DJ, rel=1e-11)


def test_ldlj_reproduces_the_reference_doctest_value() -> None:
    assert float(log_dimensionless_jerk(GAUSSIAN, 100.0)) == pytest.approx(
        PUBLISHED_LDLJ, rel=1e-11
    )
    metric = LogDimensionlessJerk(sample_rate_hz=100.0)
    metric.update(GAUSSIAN)
    assert metric.compute() == pytest.approx(PUBLISHED_LDLJ, rel=1e-11)


def test_batched_profiles_equal_one_at_a_time() -> None:
    rng = np.random.default_rng(3)
    batch = np.stack([GAUSSIAN, GAUSSIAN + 0.05 * rng.random(T.size), GAUSSIAN**2])
    one_by_one = [float(log_dimensionless_jerk(row, 100.0)) for row in batch]
    np.testing.assert_allclose(log_dimensionless_jerk(batch, 100.0), one_by_one, rtol=1e-13)


def test_a_jerkier_movement_scores_lower() -> None:
    # Two sub-movements (a pause in the middle) are less smooth than one bell.
    two = np.exp(-40 * (T + 0.5) ** 2) + np.exp(-40 * (T - 0.5) ** 2)
    assert float(log_dimensionless_jerk(two, 100.0)) < float(
        log_dimensionless_jerk(GAUSSIAN, 100.0)
    )


def test_ldlj_is_invariant_to_amplitude_and_dj_is_dimensionless() -> None:
    # Scaling speed by k scales v_peak² and (d²v/dt²)² by k²: DJ unchanged (hand).
    assert float(dimensionless_jerk(7.5 * GAUSSIAN, 100.0)) == pytest.approx(
        PUBLISHED_DJ, rel=1e-11
    )


def test_dj_of_a_parabola_hand_computed() -> None:
    # v = 1 - t² on 5 samples at 1 Hz (t = -2..2 -> v = -3, 0, 1, 0, -3): second differences
    # are all -2 (per s²), 3 of them; T = 5 s, v_peak = 3. DJ = -(125 / 9) · 3 · 4 · 1 = -166.67.
    v = np.array([-3.0, 0.0, 1.0, 0.0, -3.0])
    assert float(dimensionless_jerk(v, 1.0)) == pytest.approx(-125 / 9 * 12)
    assert float(log_dimensionless_jerk(v, 1.0)) == pytest.approx(-math.log(125 / 9 * 12))


def test_still_profiles_raise_naming_which() -> None:
    batch = np.stack([GAUSSIAN, np.zeros_like(GAUSSIAN)])
    with pytest.raises(ValidationError, match=r"0 throughout at index \(1,\)"):
        dimensionless_jerk(batch, 100.0)


def test_short_speed_raises() -> None:
    with pytest.raises(ValidationError, match=r"at least 3 samples along axis -1"):
        log_dimensionless_jerk([1.0, 2.0], 100.0)


def test_speed_from_positions_uses_central_differences() -> None:
    # x = t² sampled at 2 Hz: t = 0, .5, 1 -> x = 0, .25, 1; central difference at the middle
    # (1 - 0) / 1 s = 1 m/s; one-sided ends (0.25 / 0.5, 0.75 / 0.5) = 0.5, 1.5 m/s.
    speed = speed_from_positions([[0.0], [0.25], [1.0]], 2.0)
    np.testing.assert_allclose(speed, [0.5, 1.0, 1.5])


def test_a_profile_without_jerk_is_refused_not_infinite() -> None:
    """Constant speed gave +inf and a NumPy warning (a streaming mean then inf), a ramp
    65.18 from the rounding of its second differences (a review)."""
    for flat in (np.ones(10), np.linspace(1.0, 2.0, 10), np.linspace(1.0, 2.0, 100_000)):
        with pytest.raises(ValidationError, match=r"without jerk.*infinite"):
            log_dimensionless_jerk(flat, 10.0)
    batch = np.stack([GAUSSIAN, np.ones_like(GAUSSIAN)])
    with pytest.raises(ValidationError, match=r"without jerk at index \(1,\)"):
        log_dimensionless_jerk(batch, 100.0)
    metric = LogDimensionlessJerk(sample_rate_hz=100.0)
    with pytest.raises(ValidationError, match="without jerk"):
        metric.update(np.ones(10))
    assert float(log_dimensionless_jerk(GAUSSIAN, 100.0)) == pytest.approx(PUBLISHED_LDLJ)


def test_one_still_profile_is_a_validation_error_not_numpys() -> None:
    """A 0-d mask reached nonzero(): NumPy's 'Calling nonzero on 0d arrays' escaped (a review)."""
    with pytest.raises(ValidationError, match=r"0 throughout$"):
        log_dimensionless_jerk(np.zeros(10), 100.0)


@pytest.mark.parametrize(
    ("scale", "sample_rate_hz"), [(1e-300, 100.0), (1e200, 100.0), (1.0, 1e200)]
)
def test_jerk_is_dimensionless_at_any_scale_and_rate(scale: float, sample_rate_hz: float) -> None:
    """v_peak² and Δt² were squared first: 1e-300 m/s divided by a v_peak² of 0 ('divide by
    zero' where warnings are errors; "without jerk" for the log), 1e200 m/s and 1e200 Hz
    overflowed (a review). DJ is scale-free and, discretised as the reference, rate-free
    (T = L Δt: every Δt cancels), so the published values hold."""
    speed = GAUSSIAN * scale
    assert float(dimensionless_jerk(speed, sample_rate_hz)) == pytest.approx(
        PUBLISHED_DJ, rel=1e-11
    )
    assert float(log_dimensionless_jerk(speed, sample_rate_hz)) == pytest.approx(
        PUBLISHED_LDLJ, rel=1e-11
    )


def test_a_tiny_impulse_has_the_jerk_of_a_unit_one() -> None:
    # Hand: L = 4, v / v_peak = (1, 0, 0, 0), second differences (1, 0): DJ = -4³ · 1 = -64.
    assert float(dimensionless_jerk([1e-300, 0.0, 0.0, 0.0], 10.0)) == -64.0
    assert float(log_dimensionless_jerk([1e-300, 0.0, 0.0, 0.0], 10.0)) == pytest.approx(
        -math.log(64.0), rel=1e-15
    )


def test_speed_from_positions_at_a_huge_rate_is_not_a_warning() -> None:
    """np.gradient divided by dt = 1e-300 s first: 1 m at 1e300 Hz overflowed its square
    ('overflow encountered in multiply' where warnings are errors; a review). Hand: steps
    1 and 2 m, so ends 1e300 and 2e300 m/s, the middle 3 m over two samples, 1.5e300; a
    speed past float64 is inf."""
    speed = speed_from_positions([[0.0], [1.0], [3.0]], 1e300)
    assert speed.tolist() == [1e300, 1.5e300, 2e300]
    assert speed_from_positions([[0.0], [1e150]], 1e300).tolist() == [math.inf, math.inf]


def test_a_long_profile_with_little_jerk_is_not_taken_for_rounding() -> None:
    """A cost under 10^6 L⁴ε² was refused as 'without jerk (constant or linear speed, to
    rounding)', where rounding leaves at most about 1.5 L⁴ε² (ramps and constant speeds of
    3 to 10^5 samples, measured): a cruise at 1 m/s with a 0.5 % ripple, one period over
    10^6 samples (cost 0.0193, under 10^6 L⁴ε² = 0.049), was refused, and so was the
    minimum-jerk profile (cost 204.8) past 8·10^6 samples.

    Hand, v_i = 1 + a sin(2π i / L), L divisible by 4 (so v_peak = 1 + a): the second
    differences are a sin(2π i / L) (2 cos(2π / L) - 2), whose squares over the interior
    samples i = 1 .. L-2 sum to a² (2 - 2 cos(2π / L))² (L/2 - sin²(2π / L)).
    """
    n, a = 1_000_000, 0.005
    speed = 1.0 + a * np.sin(2.0 * np.pi * np.arange(n) / n)
    h = 2.0 - 2.0 * math.cos(2.0 * math.pi / n)
    cost = n**3 * a**2 * h**2 * (n / 2 - math.sin(2.0 * math.pi / n) ** 2) / (1.0 + a) ** 2
    assert cost == pytest.approx(0.019288, rel=1e-4)  # a² (2π)⁴ / (2 (1 + a)²)
    assert float(log_dimensionless_jerk(speed, 1000.0)) == pytest.approx(-math.log(cost), rel=1e-5)
    # A ramp as long is still refused: its rounding is far below the ripple's cost.
    with pytest.raises(ValidationError, match=r"without jerk.*infinite"):
        log_dimensionless_jerk(np.linspace(1.0, 2.0, n), 1000.0)


@pytest.mark.parametrize("origin_m", [0.0, 1000.0])
def test_constant_speed_from_rounded_positions_is_refused_as_without_jerk(
    origin_m: float,
) -> None:
    """1 mm steps at 100 Hz over 1000 samples, rounded to the millimetre: the speeds vary
    only by the positions' rounding (up to eps · 1 m / 1 mm = 2e-13 of them, far above the
    speeds' own), and LDLJ said 37.3 (19.7 a kilometre away), "smoother" than any movement,
    where constant speed given as speeds is refused (a review)."""
    positions = np.zeros((1000, 3))
    positions[:, 0] = np.round(origin_m + 0.001 * np.arange(1000), 3)
    speed = speed_from_positions(positions, 100.0)
    assert np.ptp(speed) == 0.0
    assert float(speed[0]) == pytest.approx(0.1, rel=1e-9)  # 1 mm at 100 Hz
    with pytest.raises(ValidationError, match=r"profile without jerk.*infinite"):
        log_dimensionless_jerk(speed, 100.0)


def test_positions_still_to_their_last_bit_are_a_still_profile() -> None:
    """A point at 5e5 m that moves by one ulp (5.8e-11 m) back and forth: its speeds are
    rounding, and LDLJ and SPARC gave numbers of them; SPARC refuses a still profile."""
    x = np.full(1000, 5e5)
    x[1::3] = np.nextafter(5e5, 1e6)
    positions = np.stack([x, np.zeros(1000), np.full(1000, -2.0)], axis=1)
    speed = speed_from_positions(positions, 100.0)
    assert speed.tolist() == [0.0] * 1000
    with pytest.raises(ValidationError, match=r"0 throughout"):
        log_dimensionless_jerk(speed, 100.0)


def test_a_movement_far_from_the_origin_keeps_its_speeds() -> None:
    """Only rounding is taken out: the Gaussian movement (0.25 m) gives the same speeds at
    the origin and 5e6 m away (UTM), to the rounding of 5e6 m (1e-9 of a 1 cm step)."""
    x = np.cumsum(GAUSSIAN) * 0.01
    near = speed_from_positions(np.stack([x, 0 * x], axis=1), 100.0)
    far = speed_from_positions(np.stack([x + 5e6, 0 * x + 5e6], axis=1), 100.0)
    np.testing.assert_allclose(far, near, rtol=0, atol=1e-6)
    assert np.ptp(near) > 0.9


def test_a_creep_far_from_the_origin_is_not_taken_for_a_still_profile() -> None:
    """A point at ECEF coordinates creeping 5 µm/s at 1 kHz (10 µm in 2 s, ten thousand
    ulps of travel): each speed is rounding, their mean is not. The profile was said 0
    throughout, as its mean speed was within one speed's rounding of 0, and SPARC refused
    it as still (a review); it is that constant speed now."""
    t = np.arange(2000) / 1000.0
    positions = np.stack([4.5e6 + 5e-6 * t, np.full(2000, 6e5), np.full(2000, 4.5e6)], axis=1)
    speed = speed_from_positions(positions, 1000.0)
    assert np.ptp(speed) == 0.0
    assert float(speed[0]) == pytest.approx(5e-6, rel=1e-3)
    assert math.isfinite(float(sparc(speed, 1000.0)))
    with pytest.raises(ValidationError, match=r"profile without jerk"):
        log_dimensionless_jerk(speed, 1000.0)


@pytest.mark.parametrize("origin_m", [0.0, 1000.0])
def test_constant_speed_from_float32_positions_is_refused_as_without_jerk(
    origin_m: float,
) -> None:
    """A 0.5 m/s line ((0.3, 0.4) m/s) at 100 Hz over 100 samples, stored as float32: its
    speeds varied by float32's rounding (2.1e-6 m/s from the origin, 6.7e-3 a kilometre
    away), held to float64's (u = 6e-14 m/s), and LDLJ said 7.8 (-7.3 a kilometre away)
    where the same line in float64 is refused. float32's u (3.3e-5 and 8.3e-2 m/s) takes
    them out: the profile is 0.5 m/s to float32, refused as without jerk."""
    t = np.arange(100) / 100.0
    line = np.stack([origin_m + 0.3 * t, origin_m + 0.4 * t, np.full(100, origin_m)], axis=1)
    speed = speed_from_positions(line.astype(np.float32), 100.0)
    assert np.ptp(speed) == 0.0
    assert float(speed[0]) == pytest.approx(0.5, rel=1e-4 if origin_m else 1e-6)
    with pytest.raises(ValidationError, match=r"profile without jerk.*infinite"):
        log_dimensionless_jerk(speed, 100.0)


def test_a_movement_from_float32_positions_keeps_its_ldlj() -> None:
    """Only float32's rounding is taken out: the Gaussian movement's positions (0.25 m)
    stored as float32 give the LDLJ of the float64 positions to 1e-4 (-5.82441, -5.82443)."""
    x = np.cumsum(GAUSSIAN) * 0.01
    positions = np.stack([x, 0 * x], axis=1)
    ldlj64 = float(log_dimensionless_jerk(speed_from_positions(positions, 100.0), 100.0))
    speed32 = speed_from_positions(positions.astype(np.float32), 100.0)
    assert float(log_dimensionless_jerk(speed32, 100.0)) == pytest.approx(ldlj64, abs=1e-4)
