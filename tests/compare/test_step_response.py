"""StepResponse: the rules its count and its overshoot figures keep."""

from __future__ import annotations

import math

import pytest

from robot_msgs.compare import StepResponse
from robot_msgs.errors import ValidationError
from robot_msgs.msg.catalog import example


def _step() -> StepResponse:
    step = example("compare/StepResponse")
    assert isinstance(step, StepResponse)
    return step


def test_step_response_sample_count_is_a_count() -> None:
    # n = -1 was kept: a step response of -1 samples.
    with pytest.raises(
        ValidationError, match=r"Expected a count >= 0, got int -1 - at `StepResponse\.n`$"
    ) as caught:
        _step().replace(n=-1)
    assert caught.value.field == "StepResponse.n"
    assert _step().replace(n=0).n == 0


@pytest.mark.parametrize("name", ["overshoot_pct", "undershoot_pct"])
@pytest.mark.parametrize("value", [-1.0, -math.inf, math.inf])
def test_step_response_overshoots_are_not_negative(name: str, value: float) -> None:
    # Both are 100 * max(0, ...) by definition (the docstring, control.step_response):
    # -1.0 was kept, a figure no response gives. +inf was kept too: finite samples of a
    # step that is not 0 overshoot it by a finite share (step_response refuses one past
    # float64).
    with pytest.raises(
        ValidationError,
        match=rf"Expected a finite percentage >= 0 \(NaN: unknown\), .* - at `StepResponse\.{name}`$",
    ):
        _step().replace(**{name: value})
    for kept in (0.0, 12.5):
        assert getattr(_step().replace(**{name: kept}), name) == kept
    assert math.isnan(getattr(_step().replace(**{name: math.nan}), name))


@pytest.mark.parametrize(
    ("name", "nan_means"),
    [
        ("rise_time_s", "not reached"),
        ("settling_time_s", "not reached"),
        ("peak_time_s", "unknown"),
    ],
)
@pytest.mark.parametrize("value", [-1.0, -math.inf, math.inf])
def test_step_response_times_are_finite_and_from_the_first_sample(
    name: str, nan_means: str, value: float
) -> None:
    """rise_time_s=-1.0 and settling_time_s=inf were kept: the times are seconds from the
    first sample of a finite series (step_response refuses t spanning past float64), the
    rise time the second crossing's minus the first's. NaN (never reached, never settled:
    the docstring) stays."""
    with pytest.raises(
        ValidationError,
        match=(
            rf"^Expected a finite time >= 0 \(NaN: {nan_means}\), got float {value!r} "
            rf"- at `StepResponse\.{name}`$"
        ),
    ) as caught:
        _step().replace(**{name: value})
    assert caught.value.field == f"StepResponse.{name}"
    assert getattr(_step().replace(**{name: 0.0}), name) == 0.0
    assert math.isnan(getattr(_step().replace(**{name: math.nan}), name))
