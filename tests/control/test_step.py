"""step_response: hand-derived first-order figures, python-control's flaws fixed, errors.

python-control numbers come from tests/data/python_control_step_info.json, written by
``python tests/data/make_python_control_step_info.py`` (python-control 0.10.2); the live
cross-check runs when python-control is installed.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from robot_msgs.compare import StepResponse
from robot_msgs.control import step_response, step_response_to_command
from robot_msgs.errors import ValidationError
from robot_msgs.io import example_path

DATA = json.loads(
    (Path(__file__).parents[1] / "data" / "python_control_step_info.json").read_text()
)
T = np.arange(0.0, 10.0, 0.01)  # the time base of the stored python-control runs
T5 = np.arange(0.0, 5.0, 0.01)
LN9 = math.log(9.0)  # τ ln 9: 1 - e^(-t/τ) goes from 0.1 at τ ln(10/9) to 0.9 at τ ln 10
LN50 = math.log(50.0)  # e^(-t/τ) = 0.02 at τ ln 50


def test_first_order_from_5_to_6_gets_the_true_rise_time() -> None:
    # Hand: y = 5 + (1 - e^-t), τ = 1 s; 10 %..90 % of the 5 -> 6 step: t = ln(10/9) .. ln 10.
    info = step_response(T, 5.0 + (1.0 - np.exp(-T)), final=6.0)
    assert info.rise_time_s == pytest.approx(LN9, abs=1e-4)  # 2.1972 s
    assert info.settling_time_s == pytest.approx(LN50, abs=1e-4)
    assert (info.initial, info.final, info.overshoot_pct, info.undershoot_pct) == (5.0, 6.0, 0, 0)
    # python-control measures against 10 % and 90 % of 6 (0.6 and 5.4) and reports 0.52 s.
    assert DATA["first_order_5_to_6"]["RiseTime"] == pytest.approx(0.52)


def test_final_zero_is_honoured() -> None:
    # Hand: y = e^-t from 1 to the target 0: rise from y = 0.9 (t = ln(1/0.9)) to y = 0.1
    # (t = ln 10), i.e. ln 9; settles within 0.02 at t = ln 50 = 3.912 s < 5 s.
    y = np.exp(-T5)
    info = step_response(T5, y, final=0.0)
    assert info.final == 0.0
    assert info.final_given
    assert info.steady_state == y[-1]
    assert info.rise_time_s == pytest.approx(LN9, abs=1e-4)
    assert info.settling_time_s == pytest.approx(LN50, abs=1e-4)
    assert info.overshoot_pct == 0.0
    assert (info.peak, info.peak_time_s) == (y[-1], T5[-1])  # furthest towards 0
    # python-control with yfinal=0 falls back to the last sample and reports nonsense.
    stored = DATA["decay_1_to_0_yfinal_0"]
    assert stored["SteadyStateValue"] == pytest.approx(y[-1])
    assert stored["Overshoot"] > 10_000


def test_agrees_with_python_control_where_it_is_right_to_one_sample() -> None:
    # 0 -> 1: python-control's sample-based figures are within one step (0.01 s) of ours.
    info = step_response(T, 1.0 - np.exp(-T))
    stored = DATA["first_order_0_to_1"]
    assert info.rise_time_s == pytest.approx(stored["RiseTime"], abs=0.01)
    assert info.settling_time_s == pytest.approx(stored["SettlingTime"], abs=0.01)
    assert info.peak == pytest.approx(stored["Peak"])


def test_stored_python_control_numbers_match_a_live_run() -> None:
    control = pytest.importorskip("control")
    for name, (t, y, kwargs) in {
        "first_order_5_to_6": (T, 5.0 + (1.0 - np.exp(-T)), {}),
        "first_order_0_to_1": (T, 1.0 - np.exp(-T), {}),
        "decay_1_to_0_yfinal_0": (T5, np.exp(-T5), {"yfinal": 0.0}),
    }.items():
        live = control.step_info(y, t, **kwargs)
        for key, value in DATA[name].items():
            assert float(live[key]) == pytest.approx(value, rel=1e-12), (name, key)


def test_underdamped_second_order_overshoot_hand_computed() -> None:
    # Hand: ζ = 0.5, ω_n = 1: overshoot 100 exp(-ζπ/√(1-ζ²)) = 16.303 %, peak at π/ω_d.
    zeta, wn = 0.5, 1.0
    wd = wn * math.sqrt(1 - zeta**2)
    t = np.linspace(0.0, 30.0, 30001)
    y = 1 - np.exp(-zeta * wn * t) * (
        np.cos(wd * t) + zeta / math.sqrt(1 - zeta**2) * np.sin(wd * t)
    )
    info = step_response(t, y, initial=0.0, final=1.0)
    assert info.overshoot_pct == pytest.approx(
        100 * math.exp(-zeta * math.pi / math.sqrt(1 - zeta**2)), abs=1e-4
    )
    assert info.peak_time_s == pytest.approx(math.pi / wd, abs=1e-3)
    assert info.undershoot_pct == 0.0


def test_undershoot_of_a_non_minimum_phase_response() -> None:
    # Dips to -0.2 before rising to 1: undershoot 20 % of the step.
    t = np.linspace(0.0, 4.0, 9)
    y = np.array([0.0, -0.2, -0.1, 0.3, 0.8, 1.0, 1.0, 1.0, 1.0])
    assert step_response(t, y).undershoot_pct == pytest.approx(20.0)


def test_crossings_are_interpolated_between_samples() -> None:
    # A ramp 0 -> 1 over 1 s sampled at 0, 1, 2 s: 10 % at 0.1 s, 90 % at 0.9 s: 0.8 s.
    info = step_response([0.0, 1.0, 2.0], [0.0, 1.0, 1.0])
    assert info.rise_time_s == pytest.approx(0.8)
    # |r - 1| <= 2 % from t = 0.98 s on.
    assert info.settling_time_s == pytest.approx(0.98)


def test_never_reaching_or_never_settling_gives_nan() -> None:
    info = step_response([0.0, 1.0, 2.0], [0.0, 0.5, 0.8], final=1.0)
    assert math.isnan(info.rise_time_s)
    assert math.isnan(info.settling_time_s)


def test_custom_limits_and_threshold_are_recorded() -> None:
    info = step_response(T, 1 - np.exp(-T), rise_limits=(0.05, 0.95), settling_threshold=0.05)
    assert info.rise_limits == (0.05, 0.95)
    # Hand: ln(0.95/0.05) = ln 19; settling at e^-t = 0.05 -> ln 20 (relative to y[-1] ~ 1).
    assert info.rise_time_s == pytest.approx(math.log(19), abs=1e-3)
    assert info.settling_time_s == pytest.approx(math.log(20), abs=1e-3)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"t": [0.0, 1.0], "y": [1.0, 1.0]}, r"Expected a step: `final` 1.0 equals `initial` 1.0"),
        (
            {"t": [0.0, 0.0, 1.0], "y": [0.0, 1.0, 1.0]},
            r"`t` strictly increasing, got t\[1\] = 0.0",
        ),
        (
            {"t": [0.0, 1.0], "y": [0.0, 1.0, 2.0]},
            r"`y` of shape \(2,\) like `t`, got shape \(3,\)",
        ),
        ({"t": [0.0, 1.0], "y": [0.0, np.nan]}, r"finite `y`, got nan at index 1"),
        ({"t": [0.0], "y": [0.0]}, r"`t` of shape \(N,\) with N >= 2, got shape \(1,\)"),
        (
            {"t": [0.0, 1.0], "y": [0.0, 1.0], "rise_limits": (0.9, 0.1)},
            r"`rise_limits` \(low, high\)",
        ),
        (
            {"t": [0.0, 1.0], "y": [0.0, 1.0], "settling_threshold": 0.0},
            r"`settling_threshold` finite",
        ),
    ],
)
def test_bad_input_raises(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValidationError, match=match):
        step_response(**kwargs)


def test_message_round_trips_and_rejects_a_zero_step() -> None:
    info = step_response(T, 1 - np.exp(-T), final=1.0)
    assert StepResponse.from_dict(json.loads(json.dumps(info.to_dict()))) == info
    with pytest.raises(
        ValidationError,
        match=r"a value other than initial 1.0, got float 1.0 - at `StepResponse.final`",
    ):
        info.replace(initial=1.0)


def test_rise_limits_that_are_not_numbers_are_a_validation_error() -> None:
    t = np.linspace(0.0, 5.0, 501)
    with pytest.raises(ValidationError, match=r"`rise_limits` as two numbers"):
        step_response(t, 1.0 - np.exp(-t), rise_limits="ab")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        ({"settling_threshold": "a"}, r"`settling_threshold` as a number, got str 'a'"),
        ({"settling_threshold": None}, r"`settling_threshold` as a number, got NoneType None"),
        ({"initial": "x"}, r"`initial` as a number, got str 'x'"),
        ({"final": [1.0]}, r"`final` as a number, got list \[1\.0\]"),
        ({"initial": 10**400}, r"`initial` as a number, got int 1000"),
        ({"rise_limits": (10**400, 1.0)}, r"`rise_limits` as two numbers"),
    ],
)
def test_options_that_are_not_numbers_are_a_validation_error(
    kwargs: dict[str, Any], said: str
) -> None:
    """float() let its TypeError, ValueError and OverflowError (10**400) out (a review)."""
    t = np.linspace(0.0, 5.0, 501)
    with pytest.raises(ValidationError, match=said):
        step_response(t, 1.0 - np.exp(-t), **kwargs)


def test_a_step_or_a_time_span_past_float64_is_not_a_warning() -> None:
    """A step from -1e308 to 1e308 overflowed (y - y0) with a warning (an error where
    warnings are), and so did np.diff of times from -1e308 to 1e308 s (a review). Hand,
    for r = 0, 0.8, 1, 1 at t = 0..3: 10 % at 0.125 s, 90 % at 1.5 s (rise 1.375 s); the
    2 % band entered at 1.9 s. The times' span past float64 is refused."""
    info = step_response([0.0, 1.0, 2.0, 3.0], [-1e308, 0.6e308, 1e308, 1e308])
    assert info.rise_time_s == pytest.approx(1.375, rel=1e-12)
    assert info.settling_time_s == pytest.approx(1.9, rel=1e-12)
    with pytest.raises(ValidationError, match=r"`t` spanning less than .* got -1e\+308 to 1e\+308"):
        step_response([-1e308, 0.0, 1e308], [0.0, 0.5, 1.0])


def test_a_complex_response_is_refused_not_cut_to_its_real_part() -> None:
    with pytest.raises(ValidationError, match=r"Expected `y` as real numbers, got dtype complex"):
        step_response([0.0, 1.0, 2.0], np.array([0.0, 0.5 + 1.0j, 1.0]))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"final": np.complex128(2.0 + 1.0j)}, r"Expected `final` as a number, got complex128"),
        ({"initial": np.complex128(1.0j)}, r"Expected `initial` as a number, got complex128"),
        (
            {"settling_threshold": np.complex128(0.02 + 1.0j)},
            r"Expected `settling_threshold` as a number, got complex128",
        ),
        ({"rise_limits": np.array([0.1 + 1.0j, 0.9])}, r"Expected `rise_limits` as two numbers"),
    ],
)
def test_a_complex_option_is_refused_not_cut_to_its_real_part(
    kwargs: dict[str, Any], match: str
) -> None:
    """float(np.complex128(2 + 1j)) is 2.0, with NumPy's ComplexWarning (escaping as that
    class where warnings are errors): final=2+1j was taken as 2, where a Python complex
    was refused."""
    with pytest.raises(ValidationError, match=match):
        step_response([0.0, 1.0, 2.0, 3.0], [0.0, 0.5, 0.9, 1.0], **kwargs)


def test_times_in_milliseconds_as_timedelta64_are_refused_not_read_as_seconds() -> None:
    """Hand: y = 0, 0.5, 1 at 0, 250, 500 ms: the 10 % and 90 % crossings are at 50 and
    450 ms, a rise time of 0.4 s; the timedelta64[ms] stamps gave 400.0."""
    t = np.array([0, 250, 500], dtype="timedelta64[ms]")
    with pytest.raises(ValidationError, match=r"Expected `t` as numbers .*timedelta64\[ms\]"):
        step_response(t, [0.0, 0.5, 1.0])
    seconds = t / np.timedelta64(1, "s")
    assert step_response(seconds, [0.0, 0.5, 1.0]).rise_time_s == pytest.approx(0.4)


def test_a_complex_tensor_option_is_refused_not_let_out_as_torch_error() -> None:
    """float() of a torch complex scalar raises torch's RuntimeError ('value cannot be
    converted to type double without overflow'), which escaped step_response."""
    torch = pytest.importorskip("torch")
    with pytest.raises(ValidationError, match=r"Expected `final` as a number, got Tensor"):
        step_response([0.0, 1.0, 2.0, 3.0], [0.0, 0.5, 0.9, 1.0], final=torch.tensor(2.0 + 1.0j))
    with pytest.raises(ValidationError, match=r"Expected `rise_limits` as two numbers"):
        step_response([0.0, 1.0, 2.0], [0.0, 0.5, 1.0], rise_limits=torch.tensor([0.1 + 1j, 0.9]))
    result = step_response([0.0, 1.0, 2.0, 3.0], [0.0, 0.5, 0.9, 1.0], final=torch.tensor(1.0))
    assert result.rise_time_s == pytest.approx(1.8)  # 10 % at 0.2 s, 90 % at 2 s (hand)


@pytest.mark.parametrize(
    ("y", "sample"),
    [
        ([0.0, 1e300, 1e-300], "1e+300"),  # r = 1e600: overshoot_pct inf
        ([0.0, -1e300, 1e-300], "-1e+300"),  # undershoot_pct inf
    ],
)
def test_a_response_past_float64_of_its_step_is_refused(y: list[float], sample: str) -> None:
    """A sample 1e300 beside a step of 1e-300 gave NumPy's overflow warning and an
    overshoot of inf %, which StepResponse refuses (no finite samples overshoot by that):
    it is refused naming the sample and the step."""
    said = f"got y[1] = {sample} beside a step of 1e-300 (from 0.0 to 1e-300)"
    with pytest.raises(ValidationError, match=re.escape(said)):
        step_response([0.0, 1.0, 2.0], y)


SERVO = example_path("control_servo")  # the shipped example (make_control_servo.py)


def _servo() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """The servo log: python-control's simulation (tests/data/make_control_servo.py)."""
    command = np.loadtxt(SERVO / "command.csv", delimiter=",", skiprows=2)
    measured = np.loadtxt(SERVO / "measured.csv", delimiter=",", skiprows=1)
    info = json.loads(
        (Path(__file__).parents[1] / "data" / "control_servo" / "step_info.json").read_text()
    )
    return command[:, 0], command[:, 1:], measured[:, 0], measured[:, 1:], info


def test_a_logged_step_gets_the_closed_forms_and_python_controls_figures() -> None:
    """The elbow: ωn = 2 rad/s, ζ = 0.3 from 0 to 1 at t = 1 s. Hand: overshoot
    100 exp(-ζπ/√(1-ζ²)) = 37.23 %, peak at π/(ωn√(1-ζ²)) = 1.6467 s after the step.
    python-control's step_info reads rise and settling off the 2 ms samples: one sample
    from ours each side. The wrist: τ = 0.25 s from 0 down to -0.5: τ ln 9, τ ln 50."""
    tc, cmd, tm, y, info = _servo()
    elbow = step_response_to_command(tc, cmd[:, 0], tm, y[:, 0])
    damped = math.sqrt(1.0 - 0.3**2)
    assert elbow.overshoot_pct == pytest.approx(100.0 * math.exp(-0.3 * math.pi / damped), abs=1e-4)
    assert elbow.peak_time_s == pytest.approx(math.pi / (2.0 * damped), abs=0.001)
    assert elbow.rise_time_s == pytest.approx(info["elbow"]["RiseTime"], abs=0.0025)
    assert elbow.settling_time_s == pytest.approx(info["elbow"]["SettlingTime"], abs=0.0025)
    assert (elbow.initial, elbow.final, elbow.initial_given, elbow.final_given) == (
        0,
        1,
        True,
        True,
    )
    wrist = step_response_to_command(tc, cmd[:, 1], tm, y[:, 1])
    assert wrist.rise_time_s == pytest.approx(0.25 * LN9, abs=1e-5)
    assert wrist.settling_time_s == pytest.approx(0.25 * LN50, abs=1e-5)
    assert wrist.rise_time_s == pytest.approx(info["wrist"]["RiseTime"], abs=0.0025)
    assert (wrist.final, wrist.overshoot_pct, wrist.undershoot_pct) == (-0.5, 0.0, 0.0)


def test_a_step_between_measured_samples_is_timed_from_the_command() -> None:
    """Measured every 0.1 s from 0.05 s; the step at 1.0 s: the first sample after it is
    0.05 s late, and the peak time and settling time count from the step, not from it.
    Hand: y = 1 - e^{-(t-1)/τ}, τ = 0.2 s: settled (2 %) at τ ln 50 = 0.782 s after the step,
    interpolated between the samples at 0.75 and 0.85 s after it."""
    tm = np.arange(0.05, 4.0, 0.1)
    y = np.where(tm < 1.0, 0.0, 1.0 - np.exp(-(tm - 1.0) / 0.2))
    info = step_response_to_command([0.0, 1.0, 4.0], [0.0, 1.0, 1.0], tm, y)
    e1, e2 = math.exp(-0.75 / 0.2) - 0.02, math.exp(-0.85 / 0.2) - 0.02  # band crossing
    assert info.settling_time_s == pytest.approx(0.75 + 0.1 * e1 / (e1 - e2), abs=1e-12)
    assert info.peak_time_s == pytest.approx(2.95, abs=1e-12)  # the last sample, 3.95 s


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ([1.0, 1.0, 1.0], r"Expected a step in `command`, got 1\.0 throughout"),
        (
            [0.0, 1.0, 2.0],
            (
                r"Expected one step in `command` \(from 0\.0 to 1\.0 at t = 1\.0 s\), got 2\.0 "
                r"at t_command\[2\] = 2\.0 s"
            ),
        ),
    ],
)
def test_a_command_without_exactly_one_step_is_refused(command: list[float], said: str) -> None:
    with pytest.raises(ValidationError, match=said):
        step_response_to_command([0.0, 1.0, 2.0], command, [0.0, 1.5, 2.0], [0.0, 0.5, 1.0])


def test_fewer_than_two_samples_after_the_step_are_refused() -> None:
    with pytest.raises(
        ValidationError,
        match=r"Expected at least 2 measured samples from the step at t = 1\.0 s to the "
        r"command's end at 2\.0 s, got 1",
    ):
        step_response_to_command([0.0, 1.0, 2.0], [0.0, 1.0, 1.0], [0.5, 1.5, 2.5], [0, 1, 1])


def test_a_logged_step_leaves_a_dropout_out_and_keeps_its_figures() -> None:
    """The wrist (τ = 0.25 s, from 0 to -0.5 at 1 s) with samples missing (NaN) from 3 s to
    3.1 s and at 5 s, long after its crossings: still τ ln 9 and τ ln 50 (it raised
    'Expected finite `y`'); every sample missing after the step leaves fewer than two."""
    tc, cmd, tm, y, _ = _servo()
    wrist = y[:, 1].copy()
    wrist[(tm >= 3.0) & (tm < 3.1)] = np.nan
    wrist[np.isclose(tm, 5.0)] = np.nan
    info = step_response_to_command(tc, cmd[:, 1], tm, wrist)
    assert info.rise_time_s == pytest.approx(0.25 * LN9, abs=1e-5)
    assert info.settling_time_s == pytest.approx(0.25 * LN50, abs=1e-5)
    assert info.n == int(np.sum(tm >= 1.0)) - 51
    wrist[tm > 1.0] = np.nan
    with pytest.raises(ValidationError, match=r"at least 2 measured samples from the step.*got 1$"):
        step_response_to_command(tc, cmd[:, 1], tm, wrist)


def test_a_logged_steps_dead_time_is_in_its_settling_time_not_its_rise_time() -> None:
    """A first-order loop (τ = 0.5 s) that answers a step at 1 s after L = 0.25 s: stepinfo
    times from the step, so settling is L + τ ln 50 and the peak (the last sample) 7 s,
    while the rise time, between the 10 % and 90 % crossings, stays τ ln 9 (the docstring
    said the dead time was part of the rise)."""
    tau, dead = 0.5, 0.25
    t = np.arange(8001) * 0.001
    y = np.where(t >= 1.0 + dead, 2.0 * (1.0 - np.exp(-(t - 1.0 - dead) / tau)), 0.0)
    info = step_response_to_command([0.0, 1.0, 8.0], [0.0, 2.0, 2.0], t, y)
    assert info.rise_time_s == pytest.approx(tau * LN9, abs=1e-5)
    assert info.settling_time_s == pytest.approx(dead + tau * LN50, abs=1e-5)
    assert info.peak_time_s == pytest.approx(7.0, abs=1e-12)
