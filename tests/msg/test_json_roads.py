"""Every road that reads a message's JSON text reads it by one rule.

The roads: :func:`robot_msgs.from_json` with and without a type, :func:`decode_json` and
its tree road, :func:`robot_msgs.documents.parse_json` (documents, a saved result's
skeleton) and a generated type's ``NAME_json`` field read from ROS. A UTF-8 byte-order
mark at the start is ignored on each (RFC 8259 §8.1 lets a parser ignore it;
``load_result`` and ``read_document`` did, ``from_json`` refused it), given as bytes or
as a str. What msgspec's parser refuses in words that do not say what is wrong (an
escaped lone surrogate, "Input data was truncated") is said, with its field.
"""

from __future__ import annotations

import codecs
import dataclasses
import re
from typing import TYPE_CHECKING, Any

import pytest

import robot_msgs
from robot_msgs.documents import parse_json
from robot_msgs.errors import ValidationError
from robot_msgs.geometry import Point
from robot_msgs.msg import decode_json
from robot_msgs.msg.catalog import examples
from robot_msgs.msg.json import decode_json_tree
from robot_msgs.ros import from_ros, to_ros
from robot_msgs.strict_json import dumps

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


#: A lone surrogate escaped in a string, where msgspec said "Input data was truncated"
#: (or "invalid utf-16 surrogate pair (byte 41)"), naming no field.
LONE = [
    (b'{"_type":"std/Header","frame_id":"\\ud800"}', "Header.frame_id", r"\ud800"),
    (b'{"_type":"std/Header","frame_id":"a\\udc00b"}', "Header.frame_id", r"\udc00"),
    (b'{"_type":"std/Header","frame_id":"\\ud800\\u0041"}', "Header.frame_id", r"\ud800"),
    (b'{"_type":"std/Header","\\udbff":1}', "Header['\\udbff']", r"\udbff"),
]


@pytest.mark.parametrize(("text", "path", "shown"), LONE)
@pytest.mark.parametrize("typed", [False, True], ids=["untyped", "typed"])
def test_an_escaped_lone_surrogate_is_named_with_its_field(
    text: bytes, path: str, shown: str, typed: bool
) -> None:
    header = robot_msgs.type_for("std/Header")
    said = (
        rf"^Expected .* UTF-8 can encode, got .*holding a lone surrogate \({re.escape(shown)}, "
        rf"half of a UTF-16 pair\) - at `{re.escape(path)}`$"
    )
    with pytest.raises(ValidationError, match=said) as caught:
        robot_msgs.from_json(text, header if typed else None)
    assert caught.value.field == path
    with pytest.raises(ValidationError, match=said):
        decode_json_tree(text, header)


def test_the_first_fault_in_the_text_is_the_one_named() -> None:
    """json reads a lone surrogate and 1e99999 both; msgspec stopped at the first."""
    text = b'{"_type":"std/Header","frame_id":"\\ud800","stamp":{"sec":1e99999}}'
    with pytest.raises(ValidationError, match=r"lone surrogate .* at `Header\.frame_id`$"):
        robot_msgs.from_json(text)
    text = b'{"_type":"std/Header","stamp":{"sec":1e99999},"frame_id":"\\ud800"}'
    with pytest.raises(ValidationError, match=r"float64's range .* at `Header\.stamp\.sec`$"):
        robot_msgs.from_json(text)


@pytest.mark.parametrize("typed", [False, True], ids=["untyped", "typed"])
def test_a_broken_escape_is_said_as_json_says_it_not_truncated(typed: bool) -> None:
    """'"\\u0"}' is no escape (json: at its u, column 41): msgspec read '0"}' as three
    of its four digits and said 'Input data was truncated', which it is not."""
    text = b'{"_type":"geometry/Point","x":1.0,"y":"\\u0"}'
    with pytest.raises(ValidationError, match=r"line 1, column 41$") as caught:
        robot_msgs.from_json(text, Point if typed else None)
    assert "got invalid \\uXXXX escape at" in str(caught.value)
    assert "truncated" not in str(caught.value)


def test_text_truly_cut_short_is_still_said_to_be() -> None:
    with pytest.raises(ValidationError, match=r"truncated"):
        robot_msgs.from_json(b'{"_type":"geometry/Point","x":1.0', Point)


def test_a_lone_surrogate_in_a_generated_fields_json_text_is_named() -> None:
    row = to_ros(examples()["compare/RankingRow"])
    lone = dataclasses.replace(row, parameters_json='{"a": "\\ud800"}')
    said = r"lone surrogate \(\\ud800, half of a UTF-16 pair\) - at `RankingRow\.parameters\.a`$"
    with pytest.raises(ValidationError, match=said):
        from_ros(lone)


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (b'{"_type":"std/Time","sec":1} x', r"'{\"_type\":\"std/Time\",\"sec\":1} x'\.\.\."),
        (bytearray(b"[1,"), r"'\[1,'\.\.\."),
        (memoryview('{"é": '.encode()), r"'{\"é\": '\.\.\."),
        ('{"a": 1} x', r"'{\"a\": 1} x'\.\.\."),
    ],
)
def test_text_that_is_not_json_is_shown_as_text_without_a_type(data: Any, shown: str) -> None:
    """Bytes were shown as Python's repr, "got 'b\\'{\\"_type\\"...", memoryview's as
    '<memory at 0x7f...>', where the typed road shows the text."""
    with pytest.raises(ValidationError, match=rf"^Expected JSON text of a message, got {shown}: "):
        robot_msgs.from_json(data)


@pytest.mark.parametrize(
    ("number", "size"),
    [(b"9" * 4301, 4301), (b"-" + b"9" * 4300, 4301), (b"1" * 5000, 5000)],
)
@pytest.mark.parametrize("typed", [False, True], ids=["untyped", "typed"])
def test_an_integer_too_long_to_read_is_named_with_its_field(
    number: bytes, size: int, typed: bool
) -> None:
    """msgspec refuses an integer of more than 4300 characters (its sign counted) with the
    path of its untyped parse: 'Integer value out of range - at `$[...]`'."""
    text = b'{"_type":"geometry/Point","x":1.0,"y":' + number + b"}"
    said = (
        rf"^Expected an integer of at most 4300 characters, got one of {size} "
        rf"\({re.escape(number[:20].decode())}\.\.\.\) - at `Point\.y`$"
    )
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(text, Point if typed else None)


def test_an_integer_msgspec_reads_is_not_named_for_another_fault() -> None:
    """4300 digits are read; the lone surrogate after them is the fault."""
    text = b'{"_type":"std/Header","stamp":{"sec":' + b"1" * 4300 + b'},"frame_id":"\\ud800"}'
    with pytest.raises(ValidationError, match=r"lone surrogate .* at `Header\.frame_id`$"):
        robot_msgs.from_json(text)


#: A nested message's own rule broken, its place in the outer one: the error's ``field``
#: was the inner type's (``ErrorStats.max_abs``) where its text said the whole path.
NESTED_RULES = [
    ("compare/Signal", ("stats", "max_abs"), -1.0, "Signal.stats.max_abs"),
    (
        "runs/RunSettings",
        ("evaluation", "invert_transform_right"),
        True,
        "RunSettings.evaluation.invert_transform_right",
    ),
    # A rule between two fields names both places (std 1.5 above rms was said at rms
    # alone); its field is "", the error is not about one field
    ("compare/Signal", ("stats", "std"), 1.5, "Signal.stats.std` and `Signal.stats.rms"),
]


@pytest.mark.parametrize(("name", "keys", "value", "path"), NESTED_RULES)
def test_a_nested_messages_rule_names_its_whole_path_in_field_and_text(
    name: str, keys: tuple[str, str], value: object, path: str
) -> None:
    cls = robot_msgs.type_for(name)
    form = examples()[name].to_dict()
    form[keys[0]][keys[1]] = value
    text = dumps(form).encode()
    reads: list[Callable[[], object]] = [
        lambda: cls.from_dict(form),
        lambda: robot_msgs.from_dict(form),
        lambda: decode_json(text, cls),
        lambda: robot_msgs.from_json(text),
    ]
    for read in reads:
        with pytest.raises(ValidationError, match=rf" - at `{re.escape(path)}`$") as caught:
            read()
        assert caught.value.field == ("" if "`" in path else path)


@pytest.mark.parametrize(
    ("encoding", "named"),
    [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16LE"), ("utf-32-be", "UTF-32BE")],
)
@pytest.mark.parametrize("typed", [False, True], ids=["untyped", "typed"])
def test_wide_text_is_said_to_be_wide_on_every_message_road(
    encoding: str, named: str, typed: bool
) -> None:
    """msgspec said 'invalid character (byte 0)' and the text was shown as mojibake
    ('\\x00"\\x00x...'), where load_result says a file is UTF-16 text."""
    text = POINT.decode().encode(encoding)
    root = "Point" if typed else "a message"
    said = (
        rf"^Expected UTF-8 JSON text for {root}, got {named} text; save it as UTF-8 "
        rf"\(e\.g\. iconv -f {named} -t UTF-8\)$"
    )
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(text, Point if typed else None)
