"""Shapes to draw in a viewer such as RViz (family ``visualization``, ``visualization_msgs``)."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, ClassVar

from robot_msgs.geometry import Point, Pose, Vector3
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.primitives import Float32, Int32
from robot_msgs.sensor.camera import CompressedImage
from robot_msgs.std import ColorRGBA, Duration, Header, _zeros
from robot_msgs.typing import UInt8Array

__all__ = ["Marker", "MarkerArray", "MeshFile", "UVCoordinate"]


@message("visualization/UVCoordinate", ros2="visualization_msgs/msg/UVCoordinate")
class UVCoordinate(Msg):
    """A texture coordinate of one marker vertex.

    Attributes
    ----------
    u, v : float32 in ``[0, 1]``
    """

    u: Float32 = 0.0
    v: Float32 = 0.0


@message("visualization/MeshFile", ros2="visualization_msgs/msg/MeshFile")
class MeshFile(Msg):
    """A mesh sent inline: its file name (for the format) and its bytes.

    Attributes
    ----------
    filename : str
        Its name, whose extension tells the format (``.stl``, ``.dae``).
    data : ndarray, shape (B,), uint8
        The file's bytes; read-only.
    """

    filename: str = ""
    data: Annotated[UInt8Array, Shape("B")] = field(default_factory=_zeros("u1"))


@message("visualization/Marker", ros2="visualization_msgs/msg/Marker")
class Marker(Msg):
    """One shape to draw: an arrow, a box, a line strip, text, a mesh...

    Attributes
    ----------
    header : Header
        When, and in which frame ``pose`` and ``points`` are given.
    ns : str
        Namespace; ``ns`` and ``id`` name the marker, so a later one replaces it.
    id, type, action : int32
        ``type`` one of :attr:`ARROW` ... :attr:`TRIANGLE_LIST`, ``action`` :attr:`ADD`,
        :attr:`DELETE` or :attr:`DELETEALL` (ROS's constants).
    pose : Pose, metres and unit quaternion
    scale : Vector3, metres (what each axis means depends on ``type``)
    color : ColorRGBA
        For every type but a mesh drawn with its own materials; ``a`` 0 is invisible.
    lifetime : Duration
        How long the marker is shown after it is received; 0: until deleted or replaced.
    frame_locked : bool
        Re-transform the marker into its frame at every frame shown.
    points, colors : tuple of Point (m) and of ColorRGBA
        For line, list and point types; ``colors`` empty or one per point.
    texture_resource : str
        Where the texture image is (a URI); empty for none.
    texture : CompressedImage
        The texture image sent inline.
    uv_coordinates : tuple of UVCoordinate
        Where each vertex of a mesh or triangle list lies on the texture.
    text : str
        For ``TEXT_VIEW_FACING``.
    mesh_resource : str
        For ``MESH_RESOURCE``: where the mesh file is (a URI).
    mesh_file : MeshFile
        For ``MESH_RESOURCE``: the mesh sent inline.
    mesh_use_embedded_materials : bool
        For ``MESH_RESOURCE``: draw the mesh's own materials, not ``color``.
    """

    ARROW: ClassVar[int] = 0
    CUBE: ClassVar[int] = 1
    SPHERE: ClassVar[int] = 2
    CYLINDER: ClassVar[int] = 3
    LINE_STRIP: ClassVar[int] = 4
    LINE_LIST: ClassVar[int] = 5
    CUBE_LIST: ClassVar[int] = 6
    SPHERE_LIST: ClassVar[int] = 7
    POINTS: ClassVar[int] = 8
    TEXT_VIEW_FACING: ClassVar[int] = 9
    MESH_RESOURCE: ClassVar[int] = 10
    TRIANGLE_LIST: ClassVar[int] = 11
    ADD: ClassVar[int] = 0
    MODIFY: ClassVar[int] = 0
    DELETE: ClassVar[int] = 2
    DELETEALL: ClassVar[int] = 3

    header: Header = Header()
    ns: str = ""
    id: Int32 = 0
    type: Int32 = 0
    action: Int32 = 0
    pose: Pose = Pose()
    scale: Vector3 = Vector3()
    color: ColorRGBA = ColorRGBA()
    lifetime: Duration = Duration()
    frame_locked: bool = False
    points: tuple[Point, ...] = ()
    colors: tuple[ColorRGBA, ...] = ()
    texture_resource: str = ""
    texture: CompressedImage = CompressedImage()
    uv_coordinates: tuple[UVCoordinate, ...] = ()
    text: str = ""
    mesh_resource: str = ""
    mesh_file: MeshFile = MeshFile()
    mesh_use_embedded_materials: bool = False

    def _validate(self) -> None:
        self._check_empty_or_one_each(("colors",), len(self.points), "colours (one per point)")


@message("visualization/MarkerArray", ros2="visualization_msgs/msg/MarkerArray")
class MarkerArray(Msg):
    """Markers published together, replacing or deleting by ``(ns, id)``.

    Attributes
    ----------
    markers : tuple of Marker
        Each applied by its own ``action`` to the marker of its ``(ns, id)``.
    """

    markers: tuple[Marker, ...] = ()
