"""Trajectory files in and out: TUM, KITTI, EuRoC, lat/lon/alt, ROS 1/2 bags, MCAP.

Bags are also read and written as messages (:mod:`robot_msgs.io.bag_messages`).

Every reader returns a :class:`~robot_msgs.trajectory.PoseTrajectory` and applies the
same data-problem rules (:mod:`robot_msgs.io.clean`); every writer goes through
:func:`robot_msgs.files.write_atomic`. :func:`read_trajectory` reads any of them,
:func:`write_trajectory` writes any of them, :func:`read_inputs` reads the inputs of one
evaluation in one frame, and ``example:NAME`` paths reach the example data shipped in the
package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.io.bag import (
        POSE_TYPES,
        TopicInfo,
        list_topics,
        read_bag,
    )
    from robot_msgs.io.bag_messages import (
        BAG_SUFFIXES,
        BagRecord,
        RawRecord,
        bag_qos,
        read_messages,
        read_records,
        unmapped_topics,
        write_messages,
        write_records,
        write_trajectory_bag,
    )
    from robot_msgs.io.clean import QUATERNION_REFUSE_TOL, QUATERNION_ROUNDING_TOL
    from robot_msgs.io.detect import (
        FormatDetection,
        detect_format,
        explain_format,
        geo_origin_of,
        only_pose_topic,
        pose_topics,
        read_trajectory,
        trajectory_outputs,
        write_trajectory,
    )
    from robot_msgs.io.euroc import read_euroc, write_euroc
    from robot_msgs.io.evaluation_inputs import InputFile, read_inputs
    from robot_msgs.io.examples import (
        EXAMPLE_PREFIX,
        example_path,
        list_examples,
        resolve_path,
    )
    from robot_msgs.io.formats import BAG_FORMATS, FORMATS, WRITE_FORMATS
    from robot_msgs.io.kitti import default_times_path, read_kitti, write_kitti
    from robot_msgs.io.lla import read_lla
    from robot_msgs.io.tf import parse_tf_id
    from robot_msgs.io.tum import read_tum, write_tum

__all__ = [
    "BAG_FORMATS",
    "BAG_SUFFIXES",
    "EXAMPLE_PREFIX",
    "FORMATS",
    "POSE_TYPES",
    "QUATERNION_REFUSE_TOL",
    "QUATERNION_ROUNDING_TOL",
    "WRITE_FORMATS",
    "BagRecord",
    "FormatDetection",
    "InputFile",
    "RawRecord",
    "TopicInfo",
    "bag_qos",
    "default_times_path",
    "detect_format",
    "example_path",
    "explain_format",
    "geo_origin_of",
    "list_examples",
    "list_topics",
    "only_pose_topic",
    "parse_tf_id",
    "pose_topics",
    "read_bag",
    "read_euroc",
    "read_inputs",
    "read_kitti",
    "read_lla",
    "read_messages",
    "read_records",
    "read_trajectory",
    "read_tum",
    "resolve_path",
    "trajectory_outputs",
    "unmapped_topics",
    "write_euroc",
    "write_kitti",
    "write_messages",
    "write_records",
    "write_trajectory",
    "write_trajectory_bag",
    "write_tum",
]

__getattr__ = exports(
    __name__,
    {
        "bag": ("POSE_TYPES", "TopicInfo", "list_topics", "read_bag"),
        "bag_messages": (
            "BAG_SUFFIXES",
            "BagRecord",
            "RawRecord",
            "bag_qos",
            "read_messages",
            "read_records",
            "unmapped_topics",
            "write_messages",
            "write_records",
            "write_trajectory_bag",
        ),
        "clean": ("QUATERNION_REFUSE_TOL", "QUATERNION_ROUNDING_TOL"),
        "detect": (
            "FormatDetection",
            "detect_format",
            "explain_format",
            "geo_origin_of",
            "only_pose_topic",
            "pose_topics",
            "read_trajectory",
            "trajectory_outputs",
            "write_trajectory",
        ),
        "euroc": ("read_euroc", "write_euroc"),
        "evaluation_inputs": ("InputFile", "read_inputs"),
        "formats": ("BAG_FORMATS", "FORMATS", "WRITE_FORMATS"),
        "examples": ("EXAMPLE_PREFIX", "example_path", "list_examples", "resolve_path"),
        "kitti": ("default_times_path", "read_kitti", "write_kitti"),
        "lla": ("read_lla",),
        "tf": ("parse_tf_id",),
        "tum": ("read_tum", "write_tum"),
    },
)
