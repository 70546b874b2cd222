"""The names of the trajectory formats the package reads and writes, and nothing else.

Kept apart from :mod:`robot_msgs.io.detect` (which imports every reader) so that a command's
``--help`` and its flag choices cost no reader's import.
"""

from __future__ import annotations

__all__ = ["BAG_FORMATS", "FORMATS", "READ_SUFFIXES", "WRITE_FORMATS", "WRITE_SUFFIXES"]

#: Format names ``format`` accepts.
FORMATS = ("tum", "kitti", "euroc", "lla", "bag", "bag2", "mcap")
#: The formats read with ``rosbags`` (they need ``topic``).
BAG_FORMATS = ("bag", "bag2", "mcap")
#: The formats a file's suffix names when its content does not say (a bag's magic bytes
#: do; text formats are told by their columns).
READ_SUFFIXES = {".bag": "bag", ".db3": "bag2", ".mcap": "mcap", ".lla": "lla"}
#: The formats :func:`~robot_msgs.io.detect.write_trajectory` writes, by the file suffixes
#: that say them: ``mcap`` and ``db3`` are ROS 2 bags of one ``geometry_msgs/PoseStamped``
#: per pose.
WRITE_SUFFIXES = {".tum": "tum", ".kitti": "kitti", ".csv": "euroc", ".mcap": "mcap", ".db3": "db3"}
#: :data:`WRITE_SUFFIXES`' formats.
WRITE_FORMATS = tuple(WRITE_SUFFIXES.values())
