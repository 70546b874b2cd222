"""Topic names a written bag may carry (robot_msgs.io.topic_names)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.io.topic_names import check_topic_name
from robot_msgs.msg.catalog import example

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    ("topic", "why"),
    [
        ("", "it is empty"),
        ("/", "'/' alone is the root namespace"),
        ("/odom/", "it ends with '/'"),
        ("/robot//odom", "it holds '//'"),
        ("1odom", "it starts with neither '/' nor a letter"),
        ("~/odom", "it starts with neither '/' nor a letter"),
        ("/my odom", "it holds a space or control character"),
        ("/odom\n", "it holds a space or control character"),
        # rmw: "no token starting with a digit", at most RMW_TOPIC_MAX_NAME_LENGTH (255 - 8)
        # characters; the docstring listed both, the code applied neither (hread's finding).
        ("/cam/0/pose", "a part of it starts with a digit"),
        ("/" + "a" * 247, "it is 248 characters long, more than 247"),
    ],
)
def test_check_topic_name_refuses_what_ros2_refuses(topic: str, why: str) -> None:
    # rmw_validate_full_topic_name: empty, ending with '/' (so '/' alone), '//'.
    said = f"topic {topic!r} is no ROS 2 topic name ({why}); name it as /odom or /robot/pose"
    with pytest.raises(ValidationError, match=f"^{re.escape(said)}$"):
        check_topic_name(topic)


@pytest.mark.parametrize(
    "topic", ["/odom", "/robot_1/pose", "groundtruth", "S-PTAM", "/tf", "/" + "a" * 246]
)
def test_check_topic_name_keeps_ros2_and_ros1_bag_names(topic: str) -> None:
    # evo's ROS_example.bag (ROS 1) records `groundtruth` and `S-PTAM`: converted as before.
    assert check_topic_name(topic) == topic


@pytest.mark.parametrize("topic", ["", "/"])
@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_a_bag_is_not_written_on_an_empty_topic(tmp_path: Path, topic: str, suffix: str) -> None:
    # write_messages(out, '', ...) wrote a bag on the topic '' (and '/'), which no ROS 2
    # tool replays or subscribes to.
    pytest.importorskip("rosbags")
    from robot_msgs.io import write_messages

    out = tmp_path / f"o{suffix}"
    with pytest.raises(ValidationError, match=rf"^{out}: message 0's topic {topic!r} is no ROS 2"):
        write_messages(out, topic, [example("nav/Odometry")])
    assert list(tmp_path.iterdir()) == []
