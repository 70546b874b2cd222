"""Shapes for collision checking and planning (family ``shape``, ROS 2's ``shape_msgs``).

Lengths are metres, in the frame of the message that carries the shape.
"""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, ClassVar

import msgspec

from robot_msgs.geometry import Point, Polygon
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.primitives import UInt8
from robot_msgs.std import _zeros
from robot_msgs.typing import Float64Array, UInt32Array

__all__ = ["Mesh", "MeshTriangle", "Plane", "SolidPrimitive"]


@message("shape/MeshTriangle", ros2="shape_msgs/msg/MeshTriangle")
class MeshTriangle(Msg):
    """One triangle of a :class:`Mesh`: three indices into its vertices.

    Attributes
    ----------
    vertex_indices : ndarray, shape (3,), uint32
        Counter-clockwise seen from outside, by the usual convention (ROS states none).
    """

    vertex_indices: Annotated[UInt32Array, Shape(3)] = field(default_factory=_zeros("u4", 3))


@message("shape/Mesh", ros2="shape_msgs/msg/Mesh")
class Mesh(Msg):
    """A triangle mesh: vertices and the triangles between them.

    Attributes
    ----------
    triangles : tuple of MeshTriangle
        Each index below ``len(vertices)``.
    vertices : tuple of Point, metres
    """

    triangles: tuple[MeshTriangle, ...] = ()
    vertices: tuple[Point, ...] = ()

    def _validate(self) -> None:
        # WHY max of a list: NumPy's max of three indices took 1.5 us, a third of a
        # triangle's JSON reading (the catalog's Mesh round trip was 1.05x json's).
        count = len(self.vertices)
        for i, triangle in enumerate(self.triangles):
            highest = max(triangle.vertex_indices.tolist())
            if highest >= count:
                expected = f"vertex indices below {count} (the vertices)"
                field = f"triangles[{i}].vertex_indices"
                raise self._fail(field=field, expected=expected, got=highest)


@message("shape/Plane", ros2="shape_msgs/msg/Plane")
class Plane(Msg):
    """A plane ``a x + b y + c z + d = 0``.

    Attributes
    ----------
    coef : ndarray, shape (4,), float64
        ``a, b, c`` (1, the normal, not necessarily unit) and ``d`` (metres times the
        normal's length).
    """

    coef: Annotated[Float64Array, Shape(4)] = field(default_factory=_zeros("f8", 4))


@message("shape/SolidPrimitive", ros2="shape_msgs/msg/SolidPrimitive")
class SolidPrimitive(Msg):
    """A box, sphere, cylinder, cone or prism, centred on its frame's origin.

    Attributes
    ----------
    type : uint8
        :attr:`BOX`, :attr:`SPHERE`, :attr:`CYLINDER`, :attr:`CONE` or :attr:`PRISM`.
    dimensions : tuple of float, metres, at most 3
        Indexed by ROS's constants: a box's :attr:`BOX_X`, :attr:`BOX_Y`, :attr:`BOX_Z`;
        a sphere's :attr:`SPHERE_RADIUS`; a cylinder's or cone's height and radius; a
        prism's :attr:`PRISM_HEIGHT`.
    polygon : Polygon, metres
        A prism's cross-section, in its frame's x-y plane.
    """

    BOX: ClassVar[int] = 1
    SPHERE: ClassVar[int] = 2
    CYLINDER: ClassVar[int] = 3
    CONE: ClassVar[int] = 4
    PRISM: ClassVar[int] = 5
    BOX_X: ClassVar[int] = 0
    BOX_Y: ClassVar[int] = 1
    BOX_Z: ClassVar[int] = 2
    SPHERE_RADIUS: ClassVar[int] = 0
    CYLINDER_HEIGHT: ClassVar[int] = 0
    CYLINDER_RADIUS: ClassVar[int] = 1
    CONE_HEIGHT: ClassVar[int] = 0
    CONE_RADIUS: ClassVar[int] = 1
    PRISM_HEIGHT: ClassVar[int] = 0

    type: UInt8 = 0
    dimensions: Annotated[tuple[float, ...], msgspec.Meta(max_length=3)] = ()
    polygon: Polygon = Polygon()
