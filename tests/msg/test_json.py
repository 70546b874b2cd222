"""decode_json's two roads: msgspec's typed decoder first, the parsed and revived tree after.

The typed decoder may only save time: for every registered type, drawn messages (NaN,
±inf, -0.0, bounds, unicode, empty and full arrays) read back equal and of the same field
types on both roads, and documents made invalid by one drawn change (a wrong value, a
spelling of a non-finite float where none belongs, an unknown or missing key) are either
read equally by both or refused by both with the same error text.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robot_msgs
from robot_msgs.errors import ValidationError
from robot_msgs.msg import Msg
from robot_msgs.msg.catalog import examples
from robot_msgs.msg.json import decode_json, decode_json_tree, encode_json
from tests.msg.strategies import messages

TYPES = sorted(examples())
ROADS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Values a field may wrongly hold, or hold in a spelling one road might read differently.
ODD_VALUES: list[Any] = [
    None,
    "NaN",
    "Infinity",
    "-Infinity",
    "inf",
    "1.5",
    "1",
    "true",
    "x",
    "\ud800",  # a lone surrogate: JSON text allows its escape, UTF-8 does not
    True,
    0,
    -1,
    1.5,
    -0.0,
    3.4028235e38,
    1e39,
    2**63,
    2**64,
    10**400,
    [],
    [None],
    ["Infinity"],
    {},
    {"dtype": "float64", "shape": [1], "data": ["inf"]},
    {"dtype": "uint8", "shape": [1], "data": [256]},
]


def _same_message(a: Msg, b: Msg) -> None:
    assert a == b
    for name in type(a).__struct_fields__:
        x, y = getattr(a, name), getattr(b, name)
        assert type(x) is type(y), name
        if isinstance(x, Msg):
            _same_message(x, y)
        if isinstance(x, np.ndarray):
            assert not x.flags.writeable
            assert not y.flags.writeable


def _outcome(road: Any, text: bytes, cls: type[Msg]) -> Msg | str:
    try:
        return road(text, cls)  # type: ignore[no-any-return]
    except ValidationError as err:
        return f"ValidationError: {err}"


def _places(tree: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) of a parsed JSON tree, depth first."""
    found: list[tuple[Any, Any]] = []
    if isinstance(tree, dict):
        for key, value in tree.items():
            found.append((tree, key))
            found += _places(value)
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            found.append((tree, i))
            found += _places(value)
    return found


@pytest.mark.parametrize("name", TYPES)
@ROADS
@given(data=st.data())
def test_both_roads_read_a_message_the_same(name: str, data: st.DataObject) -> None:
    cls = robot_msgs.type_for(name)
    msg = data.draw(messages(cls))
    text = encode_json(msg)
    fast, slow = decode_json(text, cls), decode_json_tree(text, cls)
    _same_message(fast, msg)
    _same_message(slow, msg)
    _same_message(fast, slow)
    as_str = text.decode()
    _same_message(decode_json(as_str, cls), decode_json_tree(as_str, cls))


@pytest.mark.parametrize("name", TYPES)
@ROADS
@given(data=st.data())
def test_both_roads_refuse_or_read_a_changed_document_alike(name: str, data: st.DataObject) -> None:
    cls = robot_msgs.type_for(name)
    tree = msgspec.json.decode(encode_json(data.draw(messages(cls))))
    container, key = data.draw(st.sampled_from(_places(tree)))
    change = data.draw(st.sampled_from(["set", "delete", "unknown key"]))
    if change == "delete" and isinstance(container, dict):
        del container[key]
    elif change == "unknown key" and isinstance(container, dict):
        container["no_such_field"] = 1
    else:
        container[key] = data.draw(st.sampled_from(ODD_VALUES))
    text = json.dumps(tree).encode()
    fast, slow = _outcome(decode_json, text, cls), _outcome(decode_json_tree, text, cls)
    if isinstance(fast, Msg) and isinstance(slow, Msg):
        _same_message(fast, slow)
    else:
        assert fast == slow


@pytest.mark.parametrize(
    "text",
    [b"", b"{", b"[1, 2]", b'{"x": NaN}', b'{"x": Infinity}', b'{"x": 1} x', b"null", b'"x"'],
)
def test_both_roads_refuse_what_is_not_a_point_alike(text: bytes) -> None:
    from robot_msgs.geometry import Point

    fast, slow = _outcome(decode_json, text, Point), _outcome(decode_json_tree, text, Point)
    assert isinstance(fast, str)
    assert fast == slow


def test_a_ros_type_name_and_spelled_floats_are_read_on_both_roads() -> None:
    from robot_msgs.geometry import Point

    text = b'{"_type": "geometry_msgs/msg/Point", "x": null, "y": "-Infinity", "z": -0.0}'
    for road in (decode_json, decode_json_tree):
        point = road(text, Point)
        assert np.isnan(point.x)
        assert point.y == -np.inf
        assert str(point.z) == "-0.0"
