"""The JSON form's fast parts against the roads they stand in for.

decode_json's two roads (msgspec's typed decoder first, the parsed and revived tree
after): the typed decoder may only save time. For every registered type, drawn messages
(NaN, ±inf, -0.0, bounds, unicode, empty and full arrays) read back equal and of the same
field types on both roads, and documents made invalid by one drawn change (a wrong value,
a spelling of a non-finite float where none belongs, an unknown or missing key) are either
read equally by both or refused by both with the same error text.

The generated walks (:mod:`robot_msgs.msg.json_walks`): a message's spelling test is true
exactly when the Python walk would spell something, and a type's reviver returns what
:func:`revived` returns, on the same drawn and changed trees and on trees whose messages
name their ROS 2 types.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import robot_msgs
from robot_msgs.errors import ValidationError
from robot_msgs.geometry import Point
from robot_msgs.msg import Msg, Value, message
from robot_msgs.msg.arrays import NON_FINITE
from robot_msgs.msg.catalog import examples
from robot_msgs.msg.fields import specs_of
from robot_msgs.msg.json import (
    _spelled_message,
    _typed_decoder,
    decode_json,
    decode_json_tree,
    encode_json,
    revived,
    reviver,
    spelling_test,
)
from robot_msgs.ros.definitions import generated_name
from robot_msgs.sensor import LaserScan
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


def _changed_tree(cls: type[Msg], data: st.DataObject) -> Any:
    """The parsed JSON form of a drawn ``cls`` message with one drawn change."""
    tree = msgspec.json.decode(encode_json(data.draw(messages(cls))))
    container, key = data.draw(st.sampled_from(_places(tree)))
    change = data.draw(st.sampled_from(["set", "delete", "unknown key"]))
    if change == "delete" and isinstance(container, dict):
        del container[key]
    elif change == "unknown key" and isinstance(container, dict):
        container["no_such_field"] = 1
    else:
        container[key] = data.draw(st.sampled_from(ODD_VALUES))
    return tree


@pytest.mark.parametrize("name", TYPES)
@ROADS
@given(data=st.data())
def test_both_roads_refuse_or_read_a_changed_document_alike(name: str, data: st.DataObject) -> None:
    cls = robot_msgs.type_for(name)
    text = json.dumps(_changed_tree(cls, data)).encode()
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


def _same_tree(a: Any, b: Any) -> bool:
    """Whether two JSON trees are equal in values and types (NaN equal to NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_tree(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same_tree, a, b))
    if isinstance(a, float):
        return a == b or (a != a and b != b)  # noqa: PLR0124 - NaN
    return bool(a == b)


def _ros_names(tree: Any) -> Any:
    """``tree`` with each message's ``"_type"`` its ROS 2 name, where it has one."""
    if isinstance(tree, list):
        return [_ros_names(v) for v in tree]
    if not isinstance(tree, dict):
        return tree
    out = {k: _ros_names(v) for k, v in tree.items()}
    name = tree.get("_type")
    if isinstance(name, str) and name in robot_msgs.registered_types():
        ros2 = robot_msgs.type_for(name).ROS2
        out["_type"] = ros2 if ros2 is not None else name
    return out


@pytest.mark.parametrize("name", TYPES)
@ROADS
@given(data=st.data())
def test_the_spelling_test_is_true_exactly_when_the_walk_spells(
    name: str, data: st.DataObject
) -> None:
    cls = robot_msgs.type_for(name)
    msg = data.draw(messages(cls))
    assert spelling_test(cls)(msg) is (_spelled_message(msg) is not msg)


@pytest.mark.parametrize("name", TYPES)
@ROADS
@given(data=st.data())
def test_the_generated_reviver_returns_what_the_walk_returns(
    name: str, data: st.DataObject
) -> None:
    cls = robot_msgs.type_for(name)
    tree = _changed_tree(cls, data)
    if data.draw(st.booleans()):
        tree = _ros_names(tree)
    fast, walked = reviver(cls)(tree), revived(cls, tree)
    assert _same_tree(fast, walked)
    assert (fast is tree) is (walked is tree)


@message("test/NonFiniteForms")
class NonFiniteForms(Msg):
    """Floats in the forms whose NaN the catalog's rules refuse: all kept in JSON."""

    maybe: float | None = None
    floats: tuple[float, ...] = ()
    optional_floats: tuple[float, ...] | None = None
    by_name: Mapping[str, float] = field(default_factory=dict)
    setting: Value = None
    settings: Mapping[str, Value] = field(default_factory=dict)


_SCALARS = st.one_of(st.floats(), st.integers(-5, 5), st.booleans(), st.text(max_size=3))
_SETTING = st.one_of(
    st.none(),
    _SCALARS.filter(lambda v: v not in NON_FINITE),
    st.lists(_SCALARS.filter(lambda v: v not in NON_FINITE), max_size=3).map(tuple),
)
_FORMS = st.builds(
    NonFiniteForms,
    maybe=st.one_of(st.none(), st.floats()),
    floats=st.lists(st.floats(), max_size=3).map(tuple),
    optional_floats=st.one_of(st.none(), st.lists(st.floats(), max_size=3).map(tuple)),
    by_name=st.dictionaries(st.text(max_size=3), st.floats(), max_size=3),
    setting=_SETTING,
    settings=st.dictionaries(st.text(max_size=3), _SETTING, max_size=3),
)


@settings(max_examples=200, deadline=None)
@given(msg=_FORMS)
def test_nan_and_infinities_in_every_form_survive_json_and_walk_alike(msg: NonFiniteForms) -> None:
    text = encode_json(msg)
    json.loads(text, parse_constant=lambda token: 1 / 0)  # strict: no bare NaN/Infinity
    _same_message(decode_json(text, NonFiniteForms), msg)
    assert spelling_test(NonFiniteForms)(msg) is (_spelled_message(msg) is not msg)
    tree = msgspec.json.decode(text)
    assert _same_tree(reviver(NonFiniteForms)(tree), revived(NonFiniteForms, tree))


def test_nan_in_an_optional_float_is_spelled_so_it_is_not_read_as_none() -> None:
    nan = NonFiniteForms(maybe=math.nan)
    assert b'"maybe":"NaN"' in encode_json(nan)
    back = decode_json(encode_json(nan), NonFiniteForms)
    assert back.maybe is not None
    assert math.isnan(back.maybe)


def _nested(depth: int, leaf: object) -> object:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


@pytest.mark.parametrize("depth", [1_000, 100_000])
@pytest.mark.parametrize(
    ("cls", "form"),
    [
        (Point, lambda deep: {"x": deep}),
        (LaserScan, lambda deep: {"ranges": deep}),
        (LaserScan, lambda deep: {"ranges": {"dtype": "float32", "shape": [1], "data": deep}}),
    ],
)
def test_forms_nested_past_the_recursion_limit_are_our_error(
    depth: int, cls: type[Msg], form: Callable[[object], dict[str, object]]
) -> None:
    # A hostile document of lists in lists: msgspec's parser and its converter stop at
    # Python's recursion limit with a RecursionError; where they do not, the field that
    # holds the lists is named (the error's "got" is cut short, not a RecursionError).
    said = (
        r"nested less deep than Python's recursion limit \(\d+\), got one deeper"
        r"|got list \[\[\[\[\[\[\[\.\.\.\]\]\]\]\]\]\] - at `(Point\.x|LaserScan\.ranges)"
    )
    tree = form(_nested(depth, 1.0))
    text = json.dumps(form("HOLE")).replace('"HOLE"', "[" * depth + "1" + "]" * depth)
    with pytest.raises(ValidationError, match=said):
        decode_json(text, cls)
    with pytest.raises(ValidationError, match=said):
        decode_json_tree(text, cls)
    with pytest.raises(ValidationError, match=said):
        cls.from_dict(tree)
    # The registry's road, the type named by "_type": a RecursionError escaped it (a walk)
    typed = json.dumps({"_type": cls.TYPE, **form("HOLE")})
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(typed.replace('"HOLE"', "[" * depth + "1" + "]" * depth))


@pytest.mark.parametrize("text", ["[" * 100_000, '{"_type": ' + "[" * 100_000])
def test_text_nested_past_the_recursion_limit_is_our_error_before_its_type_is_known(
    text: str,
) -> None:
    """``robot_msgs.from_json`` parses before it knows the type: lists 10^5 deep raised
    Python's RecursionError there (a walk), where every other JSON road says it is ours."""
    said = r"Expected a message nested less deep than Python's recursion limit \(\d+\)"
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(text)


def test_every_type_is_read_under_the_ros_name_to_ros_gives_it() -> None:
    """``to_ros`` names a type without a ROS 2 equivalent ``robot_msgs/msg/NAME``; the
    README says the ROS 2 name is accepted as ``_type``, and from_dict refused it (a
    review). Both spellings, ROS 2's and ROS 1's."""
    for name, msg in examples().items():
        cls = type(msg)
        for spelt in (generated_name(cls), generated_name(cls).replace("/msg/", "/")):
            data = {**msg.to_dict(), "_type": spelt}
            assert robot_msgs.type_for(spelt) is cls, (name, spelt)
            assert robot_msgs.from_dict(data) == msg, (name, spelt)


def test_a_users_type_takes_no_ros_name_of_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's ``ErrorStats`` took ``robot_msgs/msg/ErrorStats`` from
    ``compare/ErrorStats`` by its class name (a review)."""
    from robot_msgs.msg import registry

    class ErrorStats(Msg):  # the package's class name in a user's module, not registered
        value: float = 0.0

    declared = registry.declared_types()  # type: ignore[attr-defined]  # its own import
    monkeypatch.setattr(
        registry, "declared_types", lambda: {**declared, "myrobot/ErrorStats": ErrorStats}
    )
    assert robot_msgs.type_for("robot_msgs/msg/ErrorStats").TYPE == "compare/ErrorStats"
    assert robot_msgs.type_for("robot_msgs/ErrorStats").TYPE == "compare/ErrorStats"


def test_a_missing_float_reads_null_as_nan_on_the_typed_road_holding_a_plain_float() -> None:
    """``ErrorStats``' integrals are NaN without a time axis: their ``null`` sent every
    comparison down the tree road (1.10x json's round trip for the catalog's)."""
    from robot_msgs.compare import ErrorStats, error_stats

    stats = error_stats([1.0, -2.0])
    text = encode_json(stats)
    assert b'"iae":null,"ise":null,"itae":null' in text
    read = _typed_decoder(ErrorStats).decode(text)  # taken at once, no tree
    assert read == stats
    assert [type(getattr(read, f)) for f in ("iae", "ise", "itae")] == [float] * 3
    spelled = text.replace(b'"iae":null', b'"iae":"Infinity"').replace(b'"itae":null', b'"itae":7')
    got = _typed_decoder(ErrorStats).decode(spelled)
    assert (got.iae, got.itae, type(got.itae)) == (math.inf, 7.0, float)
    assert got == decode_json_tree(spelled, ErrorStats)
    bad = text.replace(b'"ise":null', b'"ise":"x"')
    with pytest.raises(ValidationError, match=r"Expected float, got str 'x' - at `ErrorStats.ise`"):
        decode_json(bad, ErrorStats)
    with pytest.raises(
        ValidationError, match=r"Expected float, got NoneType None .*ErrorStats.iae"
    ):
        stats.replace(iae=None)  # None is not NaN in Python: only JSON writes NaN so


def test_every_float_field_defaulting_to_nan_reads_null_on_the_typed_road() -> None:
    """A NaN default is missing data, written ``null``: declared ``MissingFloat`` so that
    msgspec's typed decoder takes it (a plain ``float`` costs a tree reading each time)."""
    from robot_msgs.msg.json import struct_defaults

    plain = []
    for name in TYPES:
        cls = robot_msgs.type_for(name)
        defaults = struct_defaults(cls)
        for key, spec in specs_of(cls).items():
            default = defaults.get(key)
            nan_default = type(default) is float and math.isnan(default)
            if spec.kind == "float" and nan_default and not spec.null_is_nan:
                plain.append(f"{name}.{key}")
    assert plain == []


#: A lone surrogate where each reader meets it: the whole form, a key, a float field, a
#: nested message, and the error's path (msgspec raised UnicodeEncodeError on every one).
_LONE = "\ud800"


@pytest.mark.parametrize(
    ("form", "said"),
    [
        (_LONE, r"Expected Point as a dict, got str '\\ud800' - at `Point`"),
        ({_LONE: 1.0}, r"got unknown field '\\ud800' - at `Point`"),
        ({"x": _LONE}, r"Expected float, got str '\\ud800' - at `Point.x`"),
    ],
)
def test_a_lone_surrogate_in_a_form_is_our_error(form: object, said: str) -> None:
    with pytest.raises(ValidationError, match=said):
        Point.from_dict(form)  # type: ignore[arg-type]  # a hostile form


def test_a_lone_surrogate_in_a_nested_form_names_its_field() -> None:
    stamped = robot_msgs.type_for("geometry/PoseStamped")
    with pytest.raises(ValidationError, match=r"got str '\\ud800' - at `PoseStamped.header`"):
        stamped.from_dict({"header": _LONE})
    with pytest.raises(ValidationError, match=r"at `PoseStamped.header.stamp`"):
        stamped.from_dict({"header": {"stamp": _LONE}})


def test_json_text_given_as_a_str_with_a_lone_surrogate_is_our_error() -> None:
    """JSON text as a Python str UTF-8 cannot encode: a UnicodeEncodeError escaped."""
    text = '{"_type": "geometry/Point", "' + _LONE + '": 1.0}'
    said = r"Expected JSON text for Point that UTF-8 can encode, .*lone surrogate at character 29"
    with pytest.raises(ValidationError, match=said):
        decode_json(text, Point)
    with pytest.raises(ValidationError, match=said):
        decode_json_tree(text, Point)
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(text, Point)
    with pytest.raises(ValidationError, match=r"Expected JSON text of a message, .*surrogates"):
        robot_msgs.from_json(text)


@pytest.mark.parametrize(
    ("cls_name", "form", "said"),
    [
        ("geometry/Point", np.zeros(3), r"Expected Point as a dict, got array .* - at `Point`$"),
        (
            "geometry/PoseStamped",
            {"header": np.zeros(0)},
            r"Expected Header as a dict, got array of shape \(0,\) float64 - at `PoseStamped.header`",
        ),
        (
            "geometry/PoseStamped",
            {"pose": {"position": np.array(1.0)}},
            r"Expected Point as a dict, got array .* - at `PoseStamped.pose.position`",
        ),
        (
            "nav/Path",
            {"poses": [np.zeros(3)]},
            r"Expected PoseStamped as a dict, got array .* - at `Path.poses\[0\]`",
        ),
        (  # a structured array: msgspec's ValueError, "no field of name _type" (a review)
            "geometry/PoseStamped",
            {"header": np.zeros(3, dtype=[("a", float)])},
            r"Expected Header as a dict, got array of shape \(3,\) .* - at `PoseStamped.header`",
        ),
    ],
)
def test_an_array_where_a_message_stands_is_our_error(
    cls_name: str, form: object, said: str
) -> None:
    """msgspec reads an array as a mapping (``array["_type"]``): an IndexError escaped."""
    with pytest.raises(ValidationError, match=said):
        robot_msgs.type_for(cls_name).from_dict(form)  # type: ignore[arg-type]  # hostile


NO_MESSAGE = r"Expected a robot_msgs message or message class \(Msg\), got "


@pytest.mark.parametrize("given", [None, 5, {"_type": "geometry/Point"}])
def test_to_json_refuses_what_is_no_message_naming_its_type(given: object) -> None:
    """``to_json(None)``, or of a message's dict, raised a bare ``StopIteration`` with
    no text (a walk)."""
    with pytest.raises(ValidationError, match=rf"{NO_MESSAGE}{type(given).__name__}$"):
        robot_msgs.to_json(given)  # type: ignore[arg-type]  # the walk's mistake


def test_a_message_class_given_for_its_instance_is_named_so() -> None:
    """``to_json(Point)`` said "got _MessageMeta", the type of the class given, as if
    no message class had been given, then "got a message class", not which; ``from_json(text, Msg)`` said "Expected _type '',
    got 'geometry/Point'" and ``from_json(b"{}", Msg)`` gave a bare ``Msg``."""
    point = robot_msgs.type_for("geometry/Point")
    for cls in (point, robot_msgs.Msg):
        said = f"Expected a message, got the class {cls.__name__}; pass an instance"
        with pytest.raises(ValidationError, match=f"^{said}$"):
            robot_msgs.to_json(cls)  # type: ignore[arg-type]  # the walk's mistake
    said = "Msg is the base of the message classes, not a message type: give one"
    for text in (robot_msgs.to_json(point()), b"{}"):
        with pytest.raises(ValidationError, match=f"^{said}"):
            robot_msgs.from_json(text, robot_msgs.Msg)
        with pytest.raises(ValidationError, match=f"^{said}"):
            decode_json_tree(text, robot_msgs.Msg)


@pytest.mark.parametrize(
    ("cls", "shown"), [(int, "int"), (dict, "dict"), ("geometry/Point", "str 'geometry/Point'")]
)
@pytest.mark.parametrize("text", [b"5", b"null", b'{"_type": "geometry/Point"}'])
def test_from_json_refuses_a_class_that_is_no_message_type(
    cls: object, shown: str, text: bytes
) -> None:
    """``from_json(b"5", int)`` returned ``5``, ``from_json(text, int)`` of a message raised
    a bare ``StopIteration`` and a type name given as ``cls`` an AttributeError (a walk)."""
    with pytest.raises(ValidationError, match=rf"{NO_MESSAGE}{re.escape(shown)}$"):
        robot_msgs.from_json(text, cls)  # type: ignore[arg-type]  # the walk's mistake


@pytest.mark.parametrize(
    ("cls", "shown"),
    [([1], "list [1]"), ({"a": 1}, "dict {'a': 1}"), ("geometry/Point", "str 'geometry/Point'")],
)
@pytest.mark.parametrize("text", [b'{"x": null}', b'{"x": 1.0}', '{"x": "\ud800"}'])
@pytest.mark.parametrize("road", [robot_msgs.from_json, decode_json_tree])
def test_every_json_road_refuses_a_class_that_is_no_message_type_before_reading(
    road: Callable[[Any, Any], Any], cls: object, shown: str, text: bytes | str
) -> None:
    """The check sat in the typed decoder alone: an unhashable ``cls`` raised "unhashable
    type: 'list'", and text holding ``null`` or a lone surrogate, read on other roads,
    "'str' object has no attribute '__name__'" (a review)."""
    with pytest.raises(ValidationError, match=rf"{NO_MESSAGE}{re.escape(shown)}$"):
        road(text, cls)


class _NoMessage(msgspec.Struct):
    """A msgspec struct that is no robot_msgs message."""


@pytest.mark.parametrize("cls", [int, _NoMessage])
def test_a_class_that_is_no_message_is_named_not_its_metaclass(cls: type) -> None:
    """``to_json(int)`` said "got type" and ``to_json`` of a plain msgspec struct class
    "got StructMeta", the metaclass, where a message class given is named (10bc8e41);
    ``to_ros`` and ``to_cdr`` alike."""
    said = rf"^Expected a message, got the class {cls.__name__}$"
    with pytest.raises(ValidationError, match=said):
        robot_msgs.to_json(cls)  # type: ignore[arg-type]  # the walk's mistake
    ros = pytest.importorskip("robot_msgs.ros", exc_type=ImportError)
    with pytest.raises(ValidationError, match=said):
        ros.to_ros(cls)
    with pytest.raises(ValidationError, match=said):
        ros.to_cdr(cls)
