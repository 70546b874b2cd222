"""TrackingSettings: the options of tracking and step figures as one validated value."""

from __future__ import annotations

import argparse
import math

import pytest

from robot_msgs.cli._settings_args import add_settings_flags, settings_from_args
from robot_msgs.control import TrackingSettings
from robot_msgs.errors import ValidationError


@pytest.mark.parametrize(
    ("kwargs", "said"),
    [
        (
            {"delay_s": -0.1},
            r"Expected float >= 0, got float -0\.1 - at `TrackingSettings\.delay_s`",
        ),
        ({"delay_s": math.inf}, r"Expected finite seconds >= 0, got float inf - at `Tracking"),
        ({"rise_limits": (0.5, 0.5)}, r"low < high <= 1, got tuple \(0\.5, 0\.5\) - at `Track"),
        ({"rise_limits": (0.1, 1.5)}, r"low < high <= 1, got tuple \(0\.1, 1\.5\)"),
        ({"rise_limits": (0.1,)}, r"of length 2\.\.2, got tuple \(0\.1,\)"),
        ({"settling_threshold": 0.0}, r"Expected float > 0, got float 0\.0 - at `TrackingSet"),
        ({"settling_threshold": math.inf}, r"Expected a finite share > 0, got float inf"),
        ({"interpolation": "nearest"}, r"Expected one of 'linear', 'previous', got str 'nearest'"),
    ],
)
def test_a_setting_out_of_its_bounds_is_refused_naming_its_field(
    kwargs: dict[str, object], said: str
) -> None:
    with pytest.raises(ValidationError, match=said):
        TrackingSettings(**kwargs)  # type: ignore[arg-type]


def test_the_flags_are_built_from_the_declarations_and_set_the_fields() -> None:
    parser = argparse.ArgumentParser()
    add_settings_flags(parser, ["TrackingSettings"])
    args = parser.parse_args(
        ["--hold", "--delay", "0.02", "--step-info", "--rise-time-limits", "0.05", "0.95"]
    )
    assert settings_from_args(args, TrackingSettings()) == TrackingSettings(
        interpolation="previous", delay_s=0.02, step_info=True, rise_limits=(0.05, 0.95)
    )
    assert settings_from_args(parser.parse_args([]), TrackingSettings()) == TrackingSettings()
