"""JSON Schema (draft 2020-12) of every message type's JSON form, from msgspec.

:func:`json_schema` is ``msgspec.json.schema`` of the type with what msgspec cannot know
filled in from the package's own rules: an array field is the object
``{"dtype", "shape", "data"}`` (:meth:`~robot_msgs.msg.Msg.to_dict`), a float field also
takes ``null`` (the package's strict JSON writes NaN and infinities so, and reads ``null``
back as NaN), and ``"_type"`` also takes the type's ROS 2 name. ``robot-msgs schema TYPE``
prints it.

Examples
--------
>>> from robot_msgs.geometry import Point
>>> schema = json_schema(Point)
>>> schema["$defs"]["Point"]["properties"]["x"]
{'anyOf': [{'type': 'number'}, {'type': 'null'}], 'default': 0.0}
>>> schema["$defs"]["Point"]["properties"]["_type"]
{'enum': ['geometry/Point', 'geometry_msgs/msg/Point', 'geometry_msgs/Point']}
"""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np

if TYPE_CHECKING:
    from robot_msgs.msg import Msg

__all__ = ["json_schema"]

_ARRAY = {
    "type": "object",
    "description": "An array: its dtype name, its shape and its values flat, row-major.",
    "properties": {
        "dtype": {"type": "string"},
        "shape": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "data": {"type": "array"},
    },
    "required": ["dtype", "shape", "data"],
    "additionalProperties": False,
}


def _hook(kind: Any) -> dict[str, Any]:
    if kind is np.ndarray or typing.get_origin(kind) is np.ndarray:
        return dict(_ARRAY)
    msg = f"Expected a message field type, got {kind!r}"
    raise NotImplementedError(msg)  # msgspec's hook protocol: "a type I do not handle"


def _nullable_numbers(node: Any) -> Any:
    """Let every ``{"type": "number"}`` also be ``null`` (NaN in strict JSON)."""
    if isinstance(node, dict):
        if node.get("type") == "number":
            rest = {k: v for k, v in node.items() if k != "type"}
            return {"anyOf": [{"type": "number"}, {"type": "null"}], **rest}
        return {k: _nullable_numbers(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_nullable_numbers(v) for v in node]
    return node


def json_schema(cls: type[Msg]) -> dict[str, Any]:
    """Return the JSON Schema of ``cls``'s JSON form (and of every type it nests).

    Raises
    ------
    TypeError
        A field type msgspec cannot describe (none of the package's).
    """
    from robot_msgs.registry import registered_types  # noqa: PLC0415 - every family

    schema: dict[str, Any] = _nullable_numbers(msgspec.json.schema(cls, schema_hook=_hook))
    by_name = {t.__name__: t for t in registered_types().values()}
    for name, definition in schema.get("$defs", {}).items():
        tag = definition.get("properties", {}).get("_type")
        known = by_name.get(name)
        if tag is not None and known is not None and known.ROS2 is not None:
            tag["enum"] = [*tag["enum"], known.ROS2, known.ROS2.replace("/msg/", "/")]
    return schema
