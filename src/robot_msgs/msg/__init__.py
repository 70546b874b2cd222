"""The message base: what every message type is built on, and what knows them all.

:class:`Msg` and the :func:`message` decorator make a message type (:mod:`.base`, where
the rules are stated); under them, what fields hold (:mod:`.fields`), array fields and
the base's one error format (:mod:`.arrays`), ROS's primitive annotations
(:mod:`.primitives`), the check run on construction (:mod:`.check`), the JSON form
(:mod:`.json`) and the short ``repr`` of large messages (:mod:`.repr`). Above the message
families, which they import: every type by its ``"_type"`` (:mod:`.registry`, served as
``robot_msgs.from_dict``...), the JSON Schema of each (:mod:`.json_schema`) and one
example of each (:mod:`.catalog`, with :mod:`.interface_examples`).

The families themselves (``robot_msgs.geometry``, ``robot_msgs.sensor``...) and the ROS
interop (:mod:`robot_msgs.ros`) live beside this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.msg.arrays import Shape
    from robot_msgs.msg.base import (
        Msg,
        declared_types,
        field_schema,
        field_specs,
        message,
        to_dict_keeping_arrays,
    )
    from robot_msgs.msg.fields import FieldSpec, FrozenMap, Scalar, Value
    from robot_msgs.msg.json import decode_json, encode_json, field_json

__all__ = [
    "FieldSpec",
    "FrozenMap",
    "Msg",
    "Scalar",
    "Shape",
    "Value",
    "declared_types",
    "decode_json",
    "encode_json",
    "field_json",
    "field_schema",
    "field_specs",
    "message",
    "to_dict_keeping_arrays",
]

__getattr__ = exports(
    __name__,
    {
        "arrays": ("Shape",),
        "base": (
            "Msg",
            "declared_types",
            "field_schema",
            "field_specs",
            "message",
            "to_dict_keeping_arrays",
        ),
        "fields": ("FieldSpec", "FrozenMap", "Scalar", "Value"),
        "json": ("decode_json", "encode_json", "field_json"),
    },
    # Until the message base became this package (0.2.0, msg.py), a message pickled
    # itself as a call of robot_msgs.msg._rebuild: the pickles written then name it.
    kept={"_rebuild": "base"},
)
