"""ROS 2 interop: messages to and from rosbags' objects and CDR bytes (the ``bags`` extra).

:func:`to_ros`/:func:`from_ros` and :func:`to_cdr`/:func:`from_cdr` (:mod:`.convert`,
where what differs from ROS is stated) go through rosbags' Humble type store;
:mod:`.cdr` hands rosbags' own generated (de)serialisers a store whose classes are the
package's messages, and :mod:`.definitions` generates the ``.msg`` definitions of the
package's own types (evaluation results), which have no ROS 2 equivalent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.ros.convert import (
        cdr_store,
        from_cdr,
        from_ros,
        humble_typestore,
        ros_name,
        ros_types,
        to_cdr,
        to_ros,
    )

__all__ = [
    "cdr_store",
    "from_cdr",
    "from_ros",
    "humble_typestore",
    "ros_name",
    "ros_types",
    "to_cdr",
    "to_ros",
]

__getattr__ = exports(
    __name__,
    {
        "convert": (
            "cdr_store",
            "from_cdr",
            "from_ros",
            "humble_typestore",
            "ros_name",
            "ros_types",
            "to_cdr",
            "to_ros",
        ),
    },
)
