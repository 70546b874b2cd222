"""Produce tests/data/ros_cdr_reference.json: rosbags' own CDR bytes of every catalog example.

Run from the repository root, with rosbags installed (the ``bags`` extra):

    PYTHONPATH=src .venv/bin/python tests/data/make_ros_cdr_reference.py

For each catalog example with a ROS 2 equivalent, the example's ``to_dict()`` form (plain
JSON values) is turned into rosbags' own message object by walking rosbags' Humble field
definitions here, without the package's converter (``robot_msgs.ros``), and serialised by
rosbags' ``serialize_cdr``. The test compares ``robot_msgs.ros.to_cdr`` with these bytes.
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
from rosbags.typesys import Stores, get_typestore

from robot_msgs.msg.catalog import examples

OUT = Path(__file__).with_name("ros_cdr_reference.json")
STORE = get_typestore(Stores.ROS2_HUMBLE)
NUMERIC = {
    "bool": "bool", "byte": "uint8", "char": "uint8", "int8": "int8", "uint8": "uint8",
    "int16": "int16", "uint16": "uint16", "int32": "int32", "uint32": "uint32",
    "int64": "int64", "uint64": "uint64", "float32": "float32", "float64": "float64",
}  # fmt: skip


def build(type_name: str, data: dict[str, Any]) -> Any:
    """Return rosbags' object of ``type_name`` from a ``to_dict()`` form."""
    fields = STORE.fielddefs[type_name][1]
    return STORE.types[type_name](**{name: value(node, data[name]) for name, node in fields})


def value(node: Any, data: Any) -> Any:
    kind, arg = int(node[0]), node[1]
    if kind == 1:  # a base type: the JSON value itself
        return data
    if kind == 2:  # a nested message
        return build(arg, data)
    (sub_kind, sub_arg), _ = arg
    flat = data["data"] if isinstance(data, dict) else data  # an array field's dict form
    if int(sub_kind) == 1 and sub_arg[0] in NUMERIC:
        return np.array(flat, dtype=NUMERIC[sub_arg[0]])
    if int(sub_kind) == 1:
        return list(flat)
    return [build(sub_arg, item) for item in flat]


def main() -> None:
    cdr: dict[str, str] = {}
    for name, msg in sorted(examples().items()):
        ros2 = type(msg).ROS2
        if ros2 is not None:
            cdr[name] = STORE.serialize_cdr(build(ros2, msg.to_dict()), ros2).hex()
    out = {"rosbags": metadata.version("rosbags"), "store": "ROS2_HUMBLE", "cdr_hex": cdr}
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(out['cdr_hex'])} types)")


if __name__ == "__main__":
    main()
