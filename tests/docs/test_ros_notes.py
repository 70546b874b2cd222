import pytest

from robot_msgs.action import UUID, GoalInfo
from robot_msgs.compare import ErrorStats
from robot_msgs.docs.ros_notes import ros2_url
from robot_msgs.geometry import PoseStamped
from robot_msgs.msg import Msg
from robot_msgs.std import Time
from robot_msgs.tf2 import TFMessage

HUMBLE = "https://github.com/ros2/{}/blob/humble/{}"


@pytest.mark.parametrize(
    ("cls", "url"),
    [
        # unique_identifier_msgs is a repository of its own with msg/ at its top
        # (its CMakeLists.txt lists "msg/UUID.msg"); the page linked a
        # unique_identifier_msgs/msg/UUID.msg that is not there
        (UUID, HUMBLE.format("unique_identifier_msgs", "msg/UUID.msg")),
        (GoalInfo, HUMBLE.format("rcl_interfaces", "action_msgs/msg/GoalInfo.msg")),
        (Time, HUMBLE.format("rcl_interfaces", "builtin_interfaces/msg/Time.msg")),
        (TFMessage, HUMBLE.format("geometry2", "tf2_msgs/msg/TFMessage.msg")),
        (PoseStamped, HUMBLE.format("common_interfaces", "geometry_msgs/msg/PoseStamped.msg")),
    ],
)
def test_ros2_url_points_at_the_msg_file_in_its_repository(cls: type[Msg], url: str) -> None:
    assert ros2_url(cls) == url


def test_a_type_without_a_ros_equivalent_has_no_definition_link() -> None:
    assert ros2_url(ErrorStats) is None
