"""Points, vectors, rotations, poses, transforms, velocities, accelerations and wrenches.

Family ``geometry``, mirroring ROS 2's ``geometry_msgs``. Units are SI: metres,
radians, metres per second, newtons. Quaternions are unit quaternions written
``x, y, z, w`` as ROS does (``w`` last).
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated

import numpy as np

from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.primitives import Float32
from robot_msgs.std import Header, _zeros
from robot_msgs.typing import Float64Array

__all__ = [
    "Accel",
    "AccelStamped",
    "AccelWithCovariance",
    "AccelWithCovarianceStamped",
    "Inertia",
    "InertiaStamped",
    "Point",
    "Point32",
    "PointStamped",
    "Polygon",
    "PolygonStamped",
    "Pose",
    "Pose2D",
    "PoseArray",
    "PoseStamped",
    "PoseWithCovariance",
    "PoseWithCovarianceStamped",
    "Quaternion",
    "QuaternionStamped",
    "Transform",
    "TransformStamped",
    "Twist",
    "TwistStamped",
    "TwistWithCovariance",
    "TwistWithCovarianceStamped",
    "Vector3",
    "Vector3Stamped",
    "Wrench",
    "WrenchStamped",
]

Covariance6 = Annotated[Float64Array, Shape(6, 6)]


@message("geometry/Vector3", ros2="geometry_msgs/msg/Vector3")
class Vector3(Msg):
    """A free vector (direction and length), such as a velocity or a force.

    A vector is not moved by a translation, a point is. Unit as the carrying field says.

    WHY apart from :class:`Point`: keeping the two types apart keeps transforms honest.

    Attributes
    ----------
    x, y, z : float
        Components along the frame's axes, in the unit of the carrying field (m/s, N...).
    """

    x: float = 0.0
    y: float = 0.0
    z: float = 0.0

    def to_array(self) -> Float64Array:
        """Return the vector as ``shape (3,), float64``."""
        return np.array([self.x, self.y, self.z])


@message("geometry/Point", ros2="geometry_msgs/msg/Point")
class Point(Msg):
    """A position in space, in metres, in the frame of the carrying message's header.

    Attributes
    ----------
    x, y, z : float, metres
    """

    x: float = 0.0
    y: float = 0.0
    z: float = 0.0

    def to_array(self) -> Float64Array:
        """Return the point as ``shape (3,), float64, metres``."""
        return np.array([self.x, self.y, self.z])


@message("geometry/Quaternion", ros2="geometry_msgs/msg/Quaternion")
class Quaternion(Msg):
    """An orientation as a quaternion ``x, y, z, w`` (``w`` the scalar part); default identity.

    The norm is not forced to 1 here, as ROS does not; the evaluation code normalises and
    reports.

    WHY not Euler angles: quaternions have no gimbal lock and compose cheaply; WHY
    ``w`` last: ROS, TUM files and ``scipy.spatial.transform`` write it so.

    Attributes
    ----------
    x, y, z : float
        The vector part, unitless.
    w : float
        The scalar part, unitless (1 for no rotation).
    """

    x: float = 0.0
    y: float = 0.0
    z: float = 0.0
    w: float = 1.0

    def to_array(self) -> Float64Array:
        """Return the quaternion as ``shape (4,), float64``, ordered ``x, y, z, w``."""
        return np.array([self.x, self.y, self.z, self.w])


@message("geometry/Pose", ros2="geometry_msgs/msg/Pose")
class Pose(Msg):
    """Where a body is and how it is turned: position (m) and orientation.

    Attributes
    ----------
    position : Point, metres
    orientation : Quaternion
        Unit quaternion, body axes relative to the frame's.
    """

    position: Point = Point()
    orientation: Quaternion = Quaternion()


@message("geometry/Transform", ros2="geometry_msgs/msg/Transform")
class Transform(Msg):
    """A rigid motion from a child frame to a parent frame: translation (m) then rotation.

    A transform maps coordinates between frames (``/tf``); a :class:`Pose` places a body.

    WHY apart from :class:`Pose`: the same numbers, but a different meaning; ROS keeps them
    apart too.

    Attributes
    ----------
    translation : Vector3, metres
        The child frame's origin in the parent frame.
    rotation : Quaternion
        Unit quaternion, child axes relative to the parent's.
    """

    translation: Vector3 = Vector3()
    rotation: Quaternion = Quaternion()


@message("geometry/Twist", ros2="geometry_msgs/msg/Twist")
class Twist(Msg):
    """Velocity in free space: linear (m/s) and angular (rad/s).

    Attributes
    ----------
    linear : Vector3, m/s
    angular : Vector3, rad/s
    """

    linear: Vector3 = Vector3()
    angular: Vector3 = Vector3()


@message("geometry/Accel", ros2="geometry_msgs/msg/Accel")
class Accel(Msg):
    """Acceleration in free space: linear (m/s²) and angular (rad/s²).

    Attributes
    ----------
    linear : Vector3, m/s²
    angular : Vector3, rad/s²
    """

    linear: Vector3 = Vector3()
    angular: Vector3 = Vector3()


@message("geometry/Wrench", ros2="geometry_msgs/msg/Wrench")
class Wrench(Msg):
    """Force (N) and torque (N·m) acting on a body.

    Attributes
    ----------
    force : Vector3, N
    torque : Vector3, N·m
    """

    force: Vector3 = Vector3()
    torque: Vector3 = Vector3()


@message("geometry/PoseWithCovariance", ros2="geometry_msgs/msg/PoseWithCovariance")
class PoseWithCovariance(Msg):
    """A pose with its uncertainty: 6x6 covariance over x, y, z, rot x, rot y, rot z.

    The covariance is ``(6, 6)``, ROS's row-major numbers (m², m·rad, rad²). ROS's flat
    ``float64[36]`` (what rosbags gives) is accepted on construction and reshaped.

    WHY ``(6, 6)`` and not ROS's flat 36: the same row-major numbers, with a shape that
    says what they are.

    Attributes
    ----------
    pose : Pose, metres and unit quaternion
    covariance : ndarray, shape (6, 6), float64, m², m·rad, rad²
        Over x, y, z and rotations about x, y, z; row-major.
    """

    pose: Pose = Pose()
    covariance: Covariance6 = field(default_factory=_zeros("f8", (6, 6)))


@message("geometry/TwistWithCovariance", ros2="geometry_msgs/msg/TwistWithCovariance")
class TwistWithCovariance(Msg):
    """A twist with its 6x6 covariance over linear x, y, z and angular x, y, z.

    Attributes
    ----------
    twist : Twist, m/s and rad/s
    covariance : ndarray, shape (6, 6), float64, (m/s)², (m/s)(rad/s), (rad/s)²
        Over linear x, y, z and angular x, y, z; row-major.
    """

    twist: Twist = Twist()
    covariance: Covariance6 = field(default_factory=_zeros("f8", (6, 6)))


@message("geometry/PointStamped", ros2="geometry_msgs/msg/PointStamped")
class PointStamped(Msg):
    """A point with the time and frame it was measured in.

    Attributes
    ----------
    header : Header
        When the point was measured and its frame.
    point : Point, metres
    """

    header: Header = Header()
    point: Point = Point()


@message("geometry/Vector3Stamped", ros2="geometry_msgs/msg/Vector3Stamped")
class Vector3Stamped(Msg):
    """A vector with the time and frame it was measured in.

    Attributes
    ----------
    header : Header
    vector : Vector3, the unit of the topic
    """

    header: Header = Header()
    vector: Vector3 = Vector3()


@message("geometry/QuaternionStamped", ros2="geometry_msgs/msg/QuaternionStamped")
class QuaternionStamped(Msg):
    """An orientation with the time and frame it was measured in.

    Attributes
    ----------
    header : Header
    quaternion : Quaternion, unit
    """

    header: Header = Header()
    quaternion: Quaternion = Quaternion()


@message("geometry/PoseStamped", ros2="geometry_msgs/msg/PoseStamped")
class PoseStamped(Msg):
    """A pose with its time and frame: one sample of an estimated or reference trajectory.

    Attributes
    ----------
    header : Header
        ``stamp`` is when the pose held, ``frame_id`` the frame it is given in.
    pose : Pose, metres and unit quaternion
    """

    header: Header = Header()
    pose: Pose = Pose()


@message("geometry/PoseWithCovarianceStamped", ros2="geometry_msgs/msg/PoseWithCovarianceStamped")
class PoseWithCovarianceStamped(Msg):
    """A pose with covariance, time and frame, as localisation nodes (AMCL) publish it.

    Attributes
    ----------
    header : Header
    pose : PoseWithCovariance, metres, unit quaternion and m², m·rad, rad²
    """

    header: Header = Header()
    pose: PoseWithCovariance = PoseWithCovariance()


@message("geometry/TransformStamped", ros2="geometry_msgs/msg/TransformStamped")
class TransformStamped(Msg):
    """A transform from ``child_frame_id`` to ``header.frame_id`` at a time: one ``/tf`` entry.

    The header names the parent frame, ``child_frame_id`` the child.

    WHY the child frame: a transform relates two frames.

    Attributes
    ----------
    header : Header
        ``frame_id`` is the parent frame.
    child_frame_id : str
        The frame the transform moves to the parent.
    transform : Transform, metres and unit quaternion
    """

    header: Header = Header()
    child_frame_id: str = ""
    transform: Transform = Transform()


@message("geometry/TwistStamped", ros2="geometry_msgs/msg/TwistStamped")
class TwistStamped(Msg):
    """A twist with the time and frame it was measured in.

    Attributes
    ----------
    header : Header
    twist : Twist, m/s and rad/s
    """

    header: Header = Header()
    twist: Twist = Twist()


@message("geometry/TwistWithCovarianceStamped", ros2="geometry_msgs/msg/TwistWithCovarianceStamped")
class TwistWithCovarianceStamped(Msg):
    """A twist with covariance, time and frame.

    Attributes
    ----------
    header : Header
    twist : TwistWithCovariance, m/s, rad/s and their covariance
    """

    header: Header = Header()
    twist: TwistWithCovariance = TwistWithCovariance()


@message("geometry/AccelStamped", ros2="geometry_msgs/msg/AccelStamped")
class AccelStamped(Msg):
    """An acceleration with the time and frame it was measured in.

    Attributes
    ----------
    header : Header
    accel : Accel, m/s² and rad/s²
    """

    header: Header = Header()
    accel: Accel = Accel()


@message("geometry/WrenchStamped", ros2="geometry_msgs/msg/WrenchStamped")
class WrenchStamped(Msg):
    """A wrench with the time and frame it was measured in, as force-torque sensors publish it.

    Attributes
    ----------
    header : Header
    wrench : Wrench, N and N·m
    """

    header: Header = Header()
    wrench: Wrench = Wrench()


@message("geometry/AccelWithCovariance", ros2="geometry_msgs/msg/AccelWithCovariance")
class AccelWithCovariance(Msg):
    """An acceleration with its 6x6 covariance over linear x, y, z and angular x, y, z.

    Attributes
    ----------
    accel : Accel, m/s² and rad/s²
    covariance : ndarray, shape (6, 6), float64, (m/s²)², (m/s²)(rad/s²), (rad/s²)²
        Row-major; ROS's flat ``float64[36]`` is accepted.
    """

    accel: Accel = Accel()
    covariance: Covariance6 = field(default_factory=_zeros("f8", (6, 6)))


@message("geometry/AccelWithCovarianceStamped", ros2="geometry_msgs/msg/AccelWithCovarianceStamped")
class AccelWithCovarianceStamped(Msg):
    """An acceleration with covariance, time and frame, as IMU filters publish it.

    Attributes
    ----------
    header : Header
    accel : AccelWithCovariance, m/s², rad/s² and their covariance
    """

    header: Header = Header()
    accel: AccelWithCovariance = AccelWithCovariance()


@message("geometry/Point32", ros2="geometry_msgs/msg/Point32")
class Point32(Msg):
    """A position in single precision, as polygons and old point clouds carry it.

    Values are rounded to float32 on construction, as the wire would. Attributes
    ``x, y, z``: float32, metres.

    WHY apart from :class:`Point`: ROS's type is ``float32``.

    Attributes
    ----------
    x, y, z : float32, metres
    """

    x: Float32 = 0.0
    y: Float32 = 0.0
    z: Float32 = 0.0


@message("geometry/Polygon", ros2="geometry_msgs/msg/Polygon")
class Polygon(Msg):
    """A closed polygon of vertices (m), such as a robot footprint; the last joins the first.

    Attributes
    ----------
    points : tuple of Point32, metres
    """

    points: tuple[Point32, ...] = ()


@message("geometry/PolygonStamped", ros2="geometry_msgs/msg/PolygonStamped")
class PolygonStamped(Msg):
    """A polygon with the time and frame it is given in (a footprint in ``base_link``).

    Attributes
    ----------
    header : Header
    polygon : Polygon, metres
    """

    header: Header = Header()
    polygon: Polygon = Polygon()


@message("geometry/Pose2D", ros2="geometry_msgs/msg/Pose2D")
class Pose2D(Msg):
    """A pose in the plane: ``x``, ``y`` in metres, heading ``theta`` in radians (from +x).

    ROS marks this type deprecated in favour of :class:`Pose`; it is here because planar
    planners and bags still carry it.

    Attributes
    ----------
    x, y : float, metres
    theta : float, radians
        Heading, counter-clockwise from +x.
    """

    x: float = 0.0
    y: float = 0.0
    theta: float = 0.0


@message("geometry/PoseArray", ros2="geometry_msgs/msg/PoseArray")
class PoseArray(Msg):
    """Poses sharing one time and frame, such as a particle filter's particles.

    Attributes
    ----------
    header : Header
    poses : tuple of Pose, metres and unit quaternions
    """

    header: Header = Header()
    poses: tuple[Pose, ...] = ()


@message("geometry/Inertia", ros2="geometry_msgs/msg/Inertia")
class Inertia(Msg):
    """Mass properties of a rigid body: what a dynamics model or payload estimator needs.

    Attributes
    ----------
    m : float, kg
    com : Vector3, metres (centre of mass in the body frame)
    ixx, ixy, ixz, iyy, iyz, izz : float, kg·m² (the inertia tensor about ``com``)
    """

    m: float = 0.0
    com: Vector3 = Vector3()
    ixx: float = 0.0
    ixy: float = 0.0
    ixz: float = 0.0
    iyy: float = 0.0
    iyz: float = 0.0
    izz: float = 0.0

    def tensor(self) -> Float64Array:
        """Return the symmetric inertia tensor, ``shape (3, 3), float64, kg·m²``."""
        return np.array(
            [
                [self.ixx, self.ixy, self.ixz],
                [self.ixy, self.iyy, self.iyz],
                [self.ixz, self.iyz, self.izz],
            ]
        )


@message("geometry/InertiaStamped", ros2="geometry_msgs/msg/InertiaStamped")
class InertiaStamped(Msg):
    """Mass properties with the time and frame they are given in.

    Attributes
    ----------
    header : Header
    inertia : Inertia, kg, m and kg·m²
    """

    header: Header = Header()
    inertia: Inertia = Inertia()
