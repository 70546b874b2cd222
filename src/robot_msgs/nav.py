"""Odometry, paths and maps (family ``nav``, ROS 2's ``nav_msgs``)."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from robot_msgs.geometry import Point, Pose, PoseStamped, PoseWithCovariance, TwistWithCovariance
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.primitives import Float32, UInt32
from robot_msgs.std import Header, Time, _zeros
from robot_msgs.typing import Int8Array

__all__ = ["GridCells", "MapMetaData", "OccupancyGrid", "Odometry", "Path"]


@message("nav/Odometry", ros2="nav_msgs/msg/Odometry")
class Odometry(Msg):
    """An estimate of a body's pose and velocity, as odometry and SLAM nodes publish it.

    The pose is given in ``header.frame_id`` (e.g. ``odom``) and the twist in
    ``child_frame_id`` (the body, e.g. ``base_link``), exactly as in ROS.

    Attributes
    ----------
    header : Header
        ``frame_id`` is the frame of the pose (``odom``).
    child_frame_id : str
        The body frame the twist is given in (``base_link``).
    pose : PoseWithCovariance, metres, unit quaternion and covariance
    twist : TwistWithCovariance, m/s, rad/s and covariance
    """

    header: Header = Header()
    child_frame_id: str = ""
    pose: PoseWithCovariance = PoseWithCovariance()
    twist: TwistWithCovariance = TwistWithCovariance()


@message("nav/Path", ros2="nav_msgs/msg/Path")
class Path(Msg):
    """A sequence of stamped poses, as planners publish a plan.

    For evaluation, convert to the array-backed :class:`~robot_msgs.trajectory.PoseTrajectory`.

    WHY a tuple of messages: it maps one to one onto ROS's ``Path``.

    Attributes
    ----------
    header : Header
        ``frame_id`` is the frame of every pose.
    poses : tuple of PoseStamped, metres and unit quaternions
    """

    header: Header = Header()
    poses: tuple[PoseStamped, ...] = ()


@message("nav/MapMetaData", ros2="nav_msgs/msg/MapMetaData")
class MapMetaData(Msg):
    """Where a grid map lies and how fine it is.

    Attributes
    ----------
    map_load_time : Time
        When the map was loaded.
    resolution : float32, metres per cell
    width, height : uint32, cells
    origin : Pose
        The pose of cell ``(0, 0)``'s corner in the map frame (m, unit quaternion).
    """

    map_load_time: Time = Time()
    resolution: Float32 = 0.0
    width: UInt32 = 0
    height: UInt32 = 0
    origin: Pose = Pose()


@message("nav/OccupancyGrid", ros2="nav_msgs/msg/OccupancyGrid")
class OccupancyGrid(Msg):
    """A 2-D grid map of occupancy, as SLAM and map servers publish it.

    Attributes
    ----------
    header : Header
    info : MapMetaData
    data : ndarray, shape (C,), int8, percent
        Row-major cells, ``C = width * height``: 0 free to 100 occupied, -1 unknown, as
        ROS defines them; :meth:`grid` is the ``(height, width)`` view.
    """

    header: Header = Header()
    info: MapMetaData = MapMetaData()
    data: Annotated[Int8Array, Shape("C")] = dataclasses.field(default_factory=_zeros("i1"))

    def _validate(self) -> None:
        cells = self.info.width * self.info.height
        if self.data.size != cells:
            expected = f"width * height = {cells} cells"
            raise self._fail(field="data", expected=expected, got=self.data)

    def grid(self) -> Int8Array:
        """Return the cells as ``shape (height, width), int8`` (a read-only view), row 0 first.

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> example("nav/OccupancyGrid").grid().shape
        (3, 4)
        """
        out: Int8Array = self.data.reshape(self.info.height, self.info.width)
        return out


@message("nav/GridCells", ros2="nav_msgs/msg/GridCells")
class GridCells(Msg):
    """A set of grid cells to show, such as a costmap's obstacles.

    Attributes
    ----------
    header : Header
    cell_width, cell_height : float32, metres
    cells : tuple of Point, metres (cell centres)
    """

    header: Header = Header()
    cell_width: Float32 = 0.0
    cell_height: Float32 = 0.0
    cells: tuple[Point, ...] = ()
