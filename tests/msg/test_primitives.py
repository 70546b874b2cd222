"""ROS primitive annotations: int bounds and float32 rounding at construction."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from robot_msgs.errors import ValidationError
from robot_msgs.geometry import PoseWithCovariance
from robot_msgs.msg.primitives import BOUNDS, Ros
from robot_msgs.sensor import JointState
from robot_msgs.std import Byte, Duration, Time
from robot_msgs.trajectory import JointTrajectory, JointTrajectoryPoint


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: Time(sec=2**31), r"int32 \(-2147483648\.\.2147483647\), got int 2147483648"),
        (lambda: Time(sec=-(2**31) - 1), r"int32 .* - at `Time.sec`"),
        (lambda: Duration(sec=2**31), r"int32 .* - at `Duration.sec`"),
        (lambda: Time(nanosec=-1), r"uint32 \(0\.\.999999999\), got int -1 - at `Time.nanosec`"),
        (lambda: Byte(data=256), r"byte \(0\.\.255\), got int 256 - at `Byte.data`"),
    ],
)
def test_int_fields_are_bounded_like_their_ros_type(make: Any, match: str) -> None:
    with pytest.raises(ValidationError, match=match):
        make()


def test_the_bounds_are_the_two_complement_ranges() -> None:
    # By hand: an n-bit signed int holds -2^(n-1) .. 2^(n-1) - 1, unsigned 0 .. 2^n - 1.
    for bits in (8, 16, 32, 64):
        assert BOUNDS[f"int{bits}"] == (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
        assert BOUNDS[f"uint{bits}"] == (0, 2**bits - 1)
        info = np.iinfo(f"int{bits}")
        assert BOUNDS[f"int{bits}"] == (int(info.min), int(info.max))


def test_the_extremes_are_accepted() -> None:
    assert Time(sec=2**31 - 1, nanosec=999_999_999).to_ns() == (2**31 - 1) * 10**9 + 999_999_999
    assert Time(sec=-(2**31)).sec == -(2**31)


def test_an_unknown_primitive_is_refused() -> None:
    with pytest.raises(ValueError, match=r"got 'int128'"):
        Ros("int128")


def test_flat_ros_covariance_is_accepted_as_six_by_six() -> None:
    flat = np.arange(36, dtype=np.float64)
    cov = PoseWithCovariance(covariance=flat)
    assert cov.covariance.shape == (6, 6)
    assert cov.covariance[1, 0] == 6.0  # row-major, as ROS documents the 36 values
    with pytest.raises(ValidationError, match=r"Expected shape \(6, 6\)"):
        PoseWithCovariance(covariance=np.zeros(35))


def test_joint_state_accepts_numpy_arrays_as_rosbags_gives_them() -> None:
    # Arrays are accepted at run time (the annotation says what is stored): hence the ignores.
    position, velocity = np.array([0.5, -1.0]), np.zeros(2)
    state = JointState(name=("a", "b"), position=position, velocity=velocity)  # type: ignore[arg-type]
    assert state.position == (0.5, -1.0)
    assert type(state.position[0]) is float
    with pytest.raises(ValidationError, match=r"0 or 2 values"):
        JointState(name=("a", "b"), position=np.array([0.5]))  # type: ignore[arg-type]


def test_joint_trajectory_takes_what_ros_takes_unordered_times_too() -> None:
    # ROS's message sets no order on time_from_start; a controller checks it on execution.
    traj = JointTrajectory(
        joint_names=("a",),
        points=(
            JointTrajectoryPoint(positions=(0.0,), time_from_start=Duration(sec=2)),
            JointTrajectoryPoint(positions=(1.0,), time_from_start=Duration(sec=2)),
        ),
    )
    assert len(traj.points) == 2


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        (0.1, 0.100000001490116119384765625),  # the float32 nearest 0.1, written out
        (0.5, 0.5),  # exactly a float32: kept as is
        (-0.0, -0.0),
        (3.4028235e38, 3.4028234663852886e38),  # FLT_MAX as it prints rounds to FLT_MAX
        (-3.4028234663852886e38, -3.4028234663852886e38),
        (1e-46, 0.0),  # below the smallest subnormal float32: rounds to zero
        (float("inf"), float("inf")),
    ],
)
def test_a_float32_field_holds_the_float32_nearest_the_value(given: float, kept: float) -> None:
    from robot_msgs.geometry import Point32

    x = Point32(x=given).x
    assert x == kept
    assert math.copysign(1.0, x) == math.copysign(1.0, kept)


def test_a_float32_field_keeps_nan_and_refuses_what_would_round_to_infinity() -> None:
    from robot_msgs.geometry import Point32

    assert math.isnan(Point32(x=float("nan")).x)
    with pytest.raises(ValidationError, match=r"float32 \(\|x\| <= 3\.4028235e38\).* `Point32\.y`"):
        Point32(y=1e39)
    with pytest.raises(ValidationError, match=r"`Point32\.z`"):
        Point32(z=-3.5e38)


@pytest.mark.parametrize(
    ("seconds", "sec", "nanosec"),
    [
        # The floats' exact values (decimal.Decimal of them): 1305031102.19432997703...
        # and 1305031098.66589999198...; round(t * 1e9) gave ...194329856 and ...665900032.
        (1305031102.19433, 1305031102, 194329977),
        (1305031098.6659, 1305031098, 665899992),
        (-0.5, -1, 500_000_000),
        (-0.0, 0, 0),
    ],
)
def test_time_from_s_is_the_nearest_nanosecond_and_reads_back(
    seconds: float, sec: int, nanosec: int
) -> None:
    stamp = Time.from_s(seconds)
    assert (stamp.sec, stamp.nanosec) == (sec, nanosec)
    assert stamp.to_s() == seconds


@settings(max_examples=300, deadline=None)
@given(
    sec=st.one_of(st.integers(-(2**31), 2**31 - 1), st.integers(-5, 5)),
    nanosec=st.integers(0, 999_999_999),
)
@example(sec=0, nanosec=507_069_464)  # sec + nanosec * 1e-9: 0.5070694640000001
@example(sec=3, nanosec=823_729_238)  # 3.8237292380000003
@example(sec=-(2**31), nanosec=999_999_999)
def test_to_s_is_the_float_nearest_the_exact_seconds(sec: int, nanosec: int) -> None:
    """sec + nanosec * 1e-9 rounded twice: a float off for about one in six values below
    5 s, so from_s(x).to_s() != x for x = 0.507069464. The exact value is a Fraction."""
    exact = float(Fraction(sec * 10**9 + nanosec, 10**9))  # Fraction's float: the nearest
    assert Time(sec=sec, nanosec=nanosec).to_s() == exact
    assert Duration(sec=sec, nanosec=nanosec).to_s() == exact
    if abs(exact) < 2**22:  # floats finer than a nanosecond (2**-30 s apart): the time back
        assert Time.from_s(exact) == Time(sec=sec, nanosec=nanosec)
        assert Duration.from_s(exact) == Duration(sec=sec, nanosec=nanosec)
    assert Time.from_s(exact).to_s() == exact  # coarser (~0.2 us today): the float back


@pytest.mark.parametrize("seconds", [np.float32(1.5), np.float16(1.5), Fraction(3, 2), np.int64(1)])
def test_from_s_takes_any_real_number(seconds: float) -> None:
    """NumPy's float32 (a sample of a float32 array) raised Fraction's TypeError."""
    expected = 1_500_000_000 if seconds != 1 else 1_000_000_000
    assert Time.from_s(seconds).to_ns() == expected
    duration = Duration.from_s(seconds)
    assert duration.sec * 10**9 + duration.nanosec == expected


def test_from_s_reads_a_decimal_exactly_and_refuses_its_nan() -> None:
    """A Decimal was read before from_s took numbers.Real only, which Decimal is not (a
    review): it is read exactly, finer than a float64 holds today's stamps."""
    from decimal import Decimal

    stamp = Time.from_s(Decimal("1305031102.194330001"))  # type: ignore[arg-type]
    assert stamp == Time(sec=1305031102, nanosec=194330001)
    half = Duration.from_s(Decimal("-0.5"))  # type: ignore[arg-type]
    assert half == Duration(sec=-1, nanosec=500_000_000)
    for bad in ("NaN", "Infinity", "-Infinity", "sNaN"):
        with pytest.raises(ValidationError, match=r"finite number of seconds, got Decimal"):
            Time.from_s(Decimal(bad))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Time.from_ns(Fraction(10**400)),  # type: ignore[arg-type]
        lambda: Time.from_s(10**400),
        lambda: Time.from_s(Fraction(-(10**400), 3)),  # type: ignore[arg-type]
        lambda: Duration.from_s(10**400),
    ],
)
def test_time_from_a_rational_past_float64_is_our_error(make: Any) -> None:
    """math.isfinite of an int or Fraction past float64 let OverflowError out: a rational
    is finite, and past int32 seconds, as any other."""
    with pytest.raises(ValidationError, match=r"Expected int32 .* - at `(Time|Duration)\.sec`"):
        make()


@pytest.mark.parametrize(
    "make",
    [
        lambda: Time.from_s(True),
        lambda: Time.from_s(False),
        lambda: Time.from_ns(True),
        lambda: Duration.from_s(True),
    ],
)
def test_time_from_a_bool_is_refused(make: Any) -> None:
    """Time.from_s(True) gave 1 s and Time.from_ns(True) 1 ns: a bool is a Python int (a
    numbers.Real) but no time, as the fields say (``Time(sec=True)`` is refused)."""
    with pytest.raises(
        ValidationError, match=r"got bool (True|False) - at `(Time|Duration)\.from_"
    ):
        make()


@pytest.mark.parametrize(
    ("make", "match"),
    [
        # int() cut Fraction(3, 2) and NumPy's float32 1.5 to 1 ns, and read the str "5"
        (
            lambda: Time.from_ns(Fraction(3, 2)),  # type: ignore[arg-type]
            r"whole number of nanoseconds, got Fraction\(3, 2\)",
        ),
        (
            lambda: Time.from_ns(np.float32(1.5)),
            r"whole number of nanoseconds, got np\.float32\(1\.5\)",
        ),
        (
            lambda: Time.from_ns("5"),  # type: ignore[arg-type]
            r"whole number of nanoseconds, got str '5' - at `Time\.from_ns`",
        ),
        # Python's TypeError from math.isfinite
        (
            lambda: Time.from_s("5"),  # type: ignore[arg-type]
            r"^Expected a number of seconds, got str '5' - at `Time\.from_s`$",
        ),
        (lambda: Duration.from_s(None), r"got NoneType None - at `Duration\.from_s`$"),  # type: ignore[arg-type]
    ],
)
def test_time_from_what_is_no_number_is_our_error(make: Any, match: str) -> None:
    with pytest.raises(ValidationError, match=match):
        make()
    assert Time.from_ns(np.float32(2.0)) == Time(nanosec=2)
    assert Time.from_ns(Fraction(4, 2)) == Time(nanosec=2)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "match"),
    [
        # NaN and inf let Python's ValueError/OverflowError out of round() or int()
        (lambda: Time.from_s(math.nan), r"finite number of seconds, got nan - at `Time.from_s`"),
        (lambda: Time.from_s(-math.inf), r"got -inf - at `Time.from_s`"),
        (lambda: Duration.from_s(math.inf), r"got inf - at `Duration.from_s`"),
        (
            lambda: Time.from_ns(math.nan),  # type: ignore[arg-type]
            r"whole number of nanoseconds, got nan - at `Time.from_ns`",
        ),
        (lambda: Time.from_ns(1.5), r"got 1.5 - at `Time.from_ns`"),  # type: ignore[arg-type] # was cut to 1 ns
    ],
)
def test_time_from_a_value_that_is_no_time_is_our_error(make: Any, match: str) -> None:
    with pytest.raises(ValidationError, match=match):
        make()


def test_an_integer_too_long_to_print_is_refused_as_our_error() -> None:
    """Saying an int32 field's int of 5001 digits let repr's ValueError out (more than
    4300 digits, sys.int_info): it is said by its size."""
    with pytest.raises(ValidationError, match=r"got int of 16610 bits - at `Time\.sec`$"):
        Time(sec=10**5000)
    with pytest.raises(ValidationError, match=r"got int of \d+ bits - at `Time\.sec`$"):
        Time.from_ns(-(10**5000))  # its seconds: 16580 bits
