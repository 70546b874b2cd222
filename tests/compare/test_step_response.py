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
@pytest.mark.parametrize("value", [-1.0, -math.inf])
def test_step_response_overshoots_are_not_negative(name: str, value: float) -> None:
    # Both are 100 * max(0, ...) by definition (the docstring, control.step_response):
    # -1.0 was kept, a figure no response gives.
    with pytest.raises(
        ValidationError,
        match=rf"Expected a percentage >= 0 \(NaN: unknown\), .* - at `StepResponse\.{name}`$",
    ):
        _step().replace(**{name: value})
    for kept in (0.0, 12.5):
        assert getattr(_step().replace(**{name: kept}), name) == kept
    assert math.isnan(getattr(_step().replace(**{name: math.nan}), name))
