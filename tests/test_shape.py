"""Shapes: a mesh's triangles index its vertices (the one rule across fields)."""

from __future__ import annotations

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.geometry import Point
from robot_msgs.msg import decode_json, encode_json
from robot_msgs.shape import Mesh, MeshTriangle


def triangle(*indices: int) -> MeshTriangle:
    return MeshTriangle(vertex_indices=np.array(indices, dtype=np.uint32))


def test_a_triangle_may_use_every_vertex_up_to_the_last() -> None:
    mesh = Mesh(triangles=(triangle(0, 1, 2), triangle(0, 2, 3)), vertices=(Point(),) * 4)
    assert decode_json(encode_json(mesh), Mesh) == mesh
    assert Mesh() == Mesh(triangles=(), vertices=())


def test_an_index_past_the_vertices_is_refused_naming_the_triangle_and_the_index() -> None:
    with pytest.raises(
        ValidationError, match=r"below 3 \(the vertices\), got int 3 .*triangles\[1\]"
    ):
        Mesh(triangles=(triangle(0, 1, 2), triangle(2, 3, 0)), vertices=(Point(),) * 3)
    with pytest.raises(ValidationError, match=r"below 0 .*got int 0 .*triangles\[0\]"):
        Mesh(triangles=(MeshTriangle(),))


def test_json_with_an_index_past_the_vertices_is_refused() -> None:
    good = encode_json(Mesh(triangles=(triangle(0, 1, 2),), vertices=(Point(),) * 3))
    bad = good.replace(b'"data":[0,1,2]', b'"data":[0,1,7]')
    assert bad != good
    with pytest.raises(ValidationError, match=r"got int 7 .*triangles\[0\]\.vertex_indices"):
        decode_json(bad, Mesh)
