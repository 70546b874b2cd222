"""``robot-msgs schema TYPE``: by our name, the ROS 2 name, or a name only one type has."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from robot_msgs.cli import main

if TYPE_CHECKING:
    import pytest


def _schema(capsys: pytest.CaptureFixture[str], name: str) -> dict[str, object]:
    assert main(["schema", name]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_a_bare_name_of_one_type_is_that_type(capsys: pytest.CaptureFixture[str]) -> None:
    """`schema Imu` answered "did you mean sensor/Imu, sensor_msgs/Imu?" (evo users type it)."""
    assert _schema(capsys, "Imu") == _schema(capsys, "sensor/Imu")
    assert _schema(capsys, "Imu") == _schema(capsys, "sensor_msgs/msg/Imu")
    assert _schema(capsys, "Pose")["$ref"] == "#/$defs/Pose"
    # In any case, when one type is so named ("schema imu" was refused, and answered
    # with one type's two spellings; a review).
    assert _schema(capsys, "imu") == _schema(capsys, "sensor/Imu")


def test_an_unknown_name_is_answered_with_one_spelling_a_type(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for typed, said, other in (
        ("sensor/Imuu", "sensor/Imu", "sensor_msgs/Imu"),
        ("sensor_msgs/Imuu", "sensor_msgs/Imu", "sensor/Imu"),
    ):
        assert main(["schema", typed]) == 2
        hint = capsys.readouterr().err.split("did you mean ")[1].split("?")[0].split(", ")
        assert hint[0] == said
        assert other not in hint


def test_an_unknown_or_shared_name_is_still_asked_about(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["schema", "Imuu"]) == 2  # a word of the command line: usage (was 1)
    assert "did you mean sensor/Imu" in capsys.readouterr().err


def test_a_long_unknown_name_is_quoted_short(capsys: pytest.CaptureFixture[str]) -> None:
    """``schema`` echoed a 100 000-character name whole in its one error line (a review)."""
    assert main(["schema", "x" * 100_000]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "ERROR: Expected a message type (a `_type` such as geometry/Pose) or its ROS 2 name "
        "(geometry_msgs/msg/Pose), got 'xxx"
    )
    assert f"'{'x' * 32}'..." in err
    assert len(err) < 300
