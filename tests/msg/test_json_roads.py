"""Every road that reads a message's JSON text reads it by one rule.

The roads: :func:`robot_msgs.from_json` with and without a type, :func:`decode_json` and
its tree road, :func:`robot_msgs.files.parse_json` (documents, a saved result's
skeleton) and a generated type's ``NAME_json`` field read from ROS. A UTF-8 byte-order
mark at the start is ignored on each (RFC 8259 §8.1 lets a parser ignore it;
``load_result`` and ``read_document`` did, ``from_json`` refused it), given as bytes or
as a str. What msgspec's parser refuses in words that do not say what is wrong (an
escaped lone surrogate, "Input data was truncated") is said, with its field.
"""

from __future__ import annotations

import codecs
import dataclasses
from typing import TYPE_CHECKING, Any

import pytest

import robot_msgs
from robot_msgs.errors import ValidationError
from robot_msgs.files import parse_json
from robot_msgs.geometry import Point
from robot_msgs.msg import decode_json
from robot_msgs.msg.catalog import examples
from robot_msgs.msg.json import decode_json_tree
from robot_msgs.ros import from_ros, to_ros

if TYPE_CHECKING:
    from collections.abc import Callable

POINT = b'{"_type":"geometry/Point","x":1.0,"y":-2.5,"z":0.0}'
BOM = codecs.BOM_UTF8

#: Each road, reading JSON text of a Point.
ROADS: dict[str, Callable[[Any], object]] = {
    "from_json": robot_msgs.from_json,
    "from_json(Point)": lambda text: robot_msgs.from_json(text, Point),
    "decode_json": lambda text: decode_json(text, Point),
    "decode_json_tree": lambda text: decode_json_tree(text, Point),
    "parse_json": lambda text: Point.from_dict(parse_json(text)),
}


@pytest.mark.parametrize("road", ROADS)
@pytest.mark.parametrize("as_str", [False, True], ids=["bytes", "str"])
@pytest.mark.parametrize("bom", [b"", BOM], ids=["no BOM", "BOM"])
def test_every_road_reads_text_with_or_without_a_byte_order_mark(
    road: str, as_str: bool, bom: bytes
) -> None:
    """from_json refused b'\\xef\\xbb\\xbf{...}' ('invalid character (byte 0)') where
    load_result read it; parse_json refused the mark in a str."""
    text = bom + POINT
    assert ROADS[road](text.decode() if as_str else text) == Point(x=1.0, y=-2.5)


@pytest.mark.parametrize("road", ROADS)
def test_only_one_byte_order_mark_is_ignored(road: str) -> None:
    with pytest.raises((ValidationError, robot_msgs.errors.FormatError)):
        ROADS[road](BOM + BOM + POINT)


def test_a_generated_fields_json_text_reads_with_or_without_a_byte_order_mark() -> None:
    row = to_ros(examples()["compare/RankingRow"])
    read = from_ros(row)
    for text in (row.parameters_json, "\ufeff" + row.parameters_json):
        assert from_ros(dataclasses.replace(row, parameters_json=text)) == read
