"""What msgspec's parser lets pass in a message's JSON text, refused by the package.

A key given twice in one object: msgspec keeps the last in silence, where
:func:`robot_msgs.documents.parse_json` refuses it. Every road that reads a message's JSON
text refuses it, naming the key; the C walk and the Python walk agree with
``json.loads``' own pairs on drawn documents.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import robot_msgs
from robot_msgs.documents import parse_json
from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.geometry import Point
from robot_msgs.msg import decode_json
from robot_msgs.msg.json import decode_json_tree
from robot_msgs.msg.json_text import refuse_repeated_keys, repeated_key, repeated_key_in_python

try:
    from robot_msgs.msg._json_keys import (  # type: ignore[import-not-found]
        repeated_key as repeated_key_in_c,
    )
except ImportError:  # pragma: no cover - built without a C compiler
    repeated_key_in_c = None

_TWICE = r"Expected JSON text for Point with each key once in an object, got key 'x' twice"


@pytest.mark.parametrize(
    "text",
    [
        b'{"x": 1.0, "x": 2.0}',  # the typed decoder takes it (x = 2.0)
        b'{"x": null, "x": 2.0}',  # null is NaN: read as a tree
        b'{"x": "Infinity", "y": 0, "x": 2}',  # a spelling: the typed decoder refuses it
        b'{"x": 1.0, "\\u0078": 2.0}',  # the same key, escaped
    ],
)
def test_decode_json_refuses_a_key_given_twice(text: bytes) -> None:
    with pytest.raises(ValidationError, match=_TWICE):
        decode_json(text, Point)
    with pytest.raises(ValidationError, match=_TWICE):
        decode_json_tree(text, Point)
    with pytest.raises(ValidationError, match=_TWICE):
        robot_msgs.from_json(text.decode(), Point)


def test_a_key_given_twice_in_a_nested_message_is_refused() -> None:
    stamped = robot_msgs.type_for("geometry/PoseStamped")
    text = b'{"pose": {"position": {"x": 1, "y": 2, "y": 3}}, "header": {}}'
    with pytest.raises(ValidationError, match=r"got key 'y' twice"):
        decode_json(text, stamped)
    typed = b'{"_type": "geometry/PoseStamped", "_type": "geometry/PoseStamped"}'
    with pytest.raises(ValidationError, match=r"for a message .*got key '_type' twice"):
        robot_msgs.from_json(typed)


def test_the_same_key_in_two_objects_is_read() -> None:
    stamped = robot_msgs.type_for("geometry/PoseStamped")
    text = b'{"pose": {"position": {"x": 1}, "orientation": {"x": 0, "w": 1}}}'
    assert decode_json(text, stamped).pose.position.x == 1.0  # type: ignore[attr-defined]
    string = robot_msgs.type_for("std/String")
    said = decode_json(b'{"data": "{\\"data\\": 1}"}', string)
    assert said.data == '{"data": 1}'  # type: ignore[attr-defined]


def _twice(text: str) -> set[str]:
    """The keys given twice in one object, by json.loads' own pairs."""
    found: set[str] = set()

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in items]
        found.update(key for key in keys if keys.count(key) > 1)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)
    return found


_KEYS = st.sampled_from(["a", "b", "\\u0061", "{", '\\"', "a:b", "é"])
_LEAVES = st.sampled_from(["1", "-2.5e3", "null", '"a"', '"}{"', '":"', '"\\\\"', '"\\""'])


def _document() -> st.SearchStrategy[str]:
    def containers(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        pair = st.tuples(_KEYS, children).map(lambda kv: f'"{kv[0]}" : {kv[1]}')
        return st.one_of(
            st.lists(pair, max_size=4).map(lambda ps: "{" + ", ".join(ps) + "}"),
            st.lists(children, max_size=3).map(lambda xs: "[" + ",".join(xs) + "]"),
        )

    return st.recursive(_LEAVES, containers, max_leaves=12)


@given(_document())
def test_the_walks_find_a_key_json_loads_sees_twice(text: str) -> None:
    """Both walks find a key given twice exactly where json.loads' pairs hold one."""
    twice = _twice(text)
    data = text.encode()
    found = repeated_key_in_python(data)
    assert (found is None) == (not twice)
    assert found is None or found.decode() in twice
    if repeated_key_in_c is not None:  # True: a key written with an escape, for Python
        in_c = repeated_key_in_c(data)
        assert in_c == found or (in_c is True and b"\\" in data)


@given(_document())
@example('{"a": 1, "a": 2, "c": {"b": 1, "b": 2}}')
def test_documents_and_message_text_name_the_same_key_given_twice(text: str) -> None:
    """parse_json found a key given twice by json's object_pairs_hook, message text by the
    walk: two roads for one rule, which named different keys where two were given twice
    ('b' of the inner object, which json closes first, for 'a' below). One walk now."""
    twice = _twice(text)
    if not twice:
        assert parse_json(text) == json.loads(text)
        return
    said = repeated_key(text.encode())
    assert said in twice
    with pytest.raises(FormatError, match=rf"^d\.json: key {re.escape(repr(said))} given twice"):
        parse_json(text, source="d.json")
    with pytest.raises(FormatError, match=rf"^d\.json: key {re.escape(repr(said))} given twice"):
        parse_json(text.encode("utf-16"), source="d.json")  # json reads UTF-16 too
    with pytest.raises(ValidationError, match=rf"got key {re.escape(repr(said))} twice"):
        refuse_repeated_keys(text.encode(), "Point")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"a": 1, "a": 2, "c": {"b": 1, "b": 2}}', "a"),  # the first in the text
        ('{"\\ud800": 1, "\ud800": 2}', "\ud800"),  # a lone surrogate, escaped and not
    ],
)
def test_parse_json_names_the_first_key_given_twice(text: str, key: str) -> None:
    with pytest.raises(FormatError, match=rf"^d\.json: key {re.escape(repr(key))} given twice"):
        parse_json(text, source="d.json")


def test_parse_json_reads_a_lone_surrogate_as_json_does() -> None:
    """json_depth encoded the text as strict UTF-8 first: UnicodeEncodeError escaped."""
    assert parse_json('["\udcff", {"\ud800": 1}]') == ["\udcff", {"\ud800": 1}]


def test_refuse_repeated_keys_says_which_key() -> None:
    with pytest.raises(ValidationError, match=r"for Point .*got key 'é' twice"):
        refuse_repeated_keys('{"é": 1, "é": 2}'.encode(), "Point")


def test_without_the_c_walk_a_key_given_twice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build without a C compiler: the Python walk alone."""
    monkeypatch.setattr("robot_msgs.msg.json_text._repeated_key", repeated_key_in_python)
    with pytest.raises(ValidationError, match=_TWICE):
        decode_json(b'{"x": 1.0, "y": 0, "x": 2.0}', Point)
    assert decode_json(b'{"x": 1.0, "y": {"x": 2}}'.replace(b'{"x": 2}', b"2"), Point).y == 2


_BEYOND = r"Expected a number within float64's range .*, got one beyond it - at `Point\.x`"


@pytest.mark.parametrize(
    "text",
    [
        b'{"x": 1e99999}',
        b'{"y": 0, "x": -1e400}',
        b'{"x": 1e99999, "x": 2}',  # json kept x = 2: msgspec's `$[...]` was said
    ],
)
def test_a_number_beyond_float64_names_its_field(text: bytes) -> None:
    """msgspec's parser said `$[...]`: the text is parsed before any type is known."""
    with pytest.raises(ValidationError, match=_BEYOND):
        decode_json(text, Point)


def test_a_number_beyond_float64_in_a_list_names_its_item() -> None:
    polygon = robot_msgs.type_for("geometry/Polygon")
    text = b'{"points": [{"x": 1}, {"y": 2, "x": 1e309}]}'
    with pytest.raises(ValidationError, match=r"beyond it - at `Polygon\.points\[1\]\.x`"):
        decode_json(text, polygon)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        (b'{"_type": "geometry/Point", "x": 1e99999}', r"Point\.x"),
        (b'{"_type": "geometry_msgs/msg/Point", "y": 0, "x": -1e400}', r"Point\.x"),
        (
            b'{"_type": "geometry/Polygon", "points": [{"x": 1}, {"x": 1e309}]}',
            r"Polygon\.points\[1\]\.x",
        ),
        (b'{"_type": "geometry/NoSuchType", "x": 1e99999}', r"\$\.x"),  # no type: msgspec's root
        (b"[1, 1e99999]", r"\$\[1\]"),
        (b'{"_type": "geometry/Point", "x": 1e99999, "x": 0}', r"Point\.x"),
    ],
)
def test_from_json_without_a_type_names_a_number_beyond_float64(text: bytes, path: str) -> None:
    """Untyped from_json said msgspec's `$[...]` where typed decoding named the field."""
    said = rf"Expected a number within float64's range .*, got one beyond it - at `{path}`$"
    with pytest.raises(ValidationError, match=said) as raised:
        robot_msgs.from_json(text)
    assert raised.value.field == path.replace("\\", "")
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(text.decode())


def test_text_json_refuses_too_keeps_msgspecs_error() -> None:
    """Cut short after the number: not JSON, said as msgspec says it."""
    with pytest.raises(ValidationError, match=r"Expected JSON text for Point, .*out of range"):
        decode_json(b'{"x": 1e99999', Point)


@pytest.mark.parametrize("kind", [bytearray, memoryview])
def test_json_text_in_a_buffer_is_read_as_bytes(kind: type) -> None:
    """msgspec reads a bytearray or memoryview; the walks took bytes only (TypeError)."""
    text = b'{"x": 1.0, "y": 2.0, "z": 3.0}'
    assert decode_json(kind(text), Point) == Point(x=1.0, y=2.0, z=3.0)
    assert robot_msgs.from_json(kind(text), Point) == Point(x=1.0, y=2.0, z=3.0)
    typed = b'{"_type": "geometry/Point", "x": 1.0}'
    assert robot_msgs.from_json(kind(typed)) == Point(x=1.0)
    with pytest.raises(ValidationError, match=_TWICE):
        decode_json(kind(b'{"x": 1.0, "x": 2.0}'), Point)
    with pytest.raises(ValidationError, match=r"for a message .*got key 'x' twice"):
        robot_msgs.from_json(kind(b'{"_type": "geometry/Point", "x": 1, "x": 2}'))
    with pytest.raises(ValidationError, match=_BEYOND):
        decode_json(kind(b'{"x": 1e99999}'), Point)


@pytest.mark.skipif(repeated_key_in_c is None, reason="built without a C compiler")
def test_the_c_walk_forgets_the_keys_of_closed_objects() -> None:
    """Every key of every object stayed in one table: 1e5 objects of three keys (2.4 MB)
    took 50 MB (2**20 slots of 32 bytes, doubled while growing), and decode_json of a
    Path of 1e5 poses 2.2 s for 0.38 s before the walk (a review of f1fce9d). Only the
    open objects' keys are kept: here at most three, a few kilobytes."""
    import tracemalloc

    text = ("[" + ",".join(f'{{"x": {k}, "y": 2, "z": 3}}' for k in range(100_000)) + "]").encode()
    tracemalloc.start()
    try:
        assert repeated_key_in_c(text) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000
    assert repeated_key_in_c(text[:-1] + b', {"x": 1, "y": 2, "x": 3}]') == b"x"


@pytest.mark.skipif(repeated_key_in_c is None, reason="built without a C compiler")
def test_keys_json_escapes_past_ascii_stay_on_the_c_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """json.dumps writes a key past ASCII as \\u escapes, and one such key sent the whole
    text to the Python walk: 1.5 s for 0.4 s on a 15 MB document (parse_json, a review).
    The strings are written unescaped and walked in C; only keys that keep an escape
    (\\\\, \\", controls) go to the Python walk."""
    from robot_msgs.msg import json_text

    rows = [{"name": f"run {i}", "größe": i} for i in range(3)]
    text = json.dumps({"runs": rows, "\u00e9t\u00e9": 1}).encode()
    assert b"\\u00e9" in text
    twice = (
        json.dumps({"a": [{"\u00e9": 1}], "x": 2}).encode().replace(b"1}", '1, "é": 2}'.encode())
    )

    def slow(text: bytes) -> bytes | None:
        msg = f"the Python walk, on {text[:40]!r}"
        raise AssertionError(msg)

    monkeypatch.setattr(json_text, "repeated_key_in_python", slow)
    assert repeated_key(text) is None
    assert repeated_key(twice) == "\u00e9"  # "\u00e9" and "é" are one key
    assert repeated_key(b'{"a\\u00e9": 1, "a\\u00e9": 2}') == "a\u00e9"
    monkeypatch.undo()
    assert repeated_key(b'{"a\\"": 1, "\\u0061\\"": 2}') == 'a"'  # the Python walk's


@given(
    st.recursive(
        st.none() | st.integers() | st.text(alphabet='a"\\é\n/{}\ud800😀', max_size=3),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.lists(
                st.tuples(st.text(alphabet='ab"\\é\n\ud800😀', max_size=2), inner), max_size=4
            )
        ),
        max_leaves=12,
    ),
    st.booleans(),
)
def test_the_walk_on_strings_unescaped_names_the_key_the_python_walk_names(
    tree: Any, ascii_only: bool
) -> None:
    """Objects drawn as pairs (a key may come twice), written with or without escapes."""

    def written(node: Any) -> str:
        if isinstance(node, list) and node and all(isinstance(n, tuple) for n in node):
            pairs = (f"{json.dumps(k, ensure_ascii=ascii_only)}: {written(v)}" for k, v in node)
            return "{" + ", ".join(pairs) + "}"
        if isinstance(node, list):
            return "[" + ", ".join(written(n) for n in node) + "]"
        return json.dumps(node, ensure_ascii=ascii_only)

    text = written(tree).encode("utf-8", "surrogatepass")
    want = repeated_key_in_python(text)
    assert repeated_key(text) == (None if want is None else want.decode("utf-8", "surrogatepass"))
