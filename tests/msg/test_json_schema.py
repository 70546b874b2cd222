"""JSON Schema of every type: the catalog's JSON validates, wrong JSON does not (jsonschema)."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np
import pytest

import robot_msgs
from robot_msgs.cli import main
from robot_msgs.errors import ValidationError
from robot_msgs.msg import field_schema
from robot_msgs.msg.catalog import examples
from robot_msgs.msg.json_schema import json_schema
from robot_msgs.msg.registry import to_json, type_for

if TYPE_CHECKING:
    from collections.abc import Iterator

    from robot_msgs.msg import FieldSpec, Msg

jsonschema = pytest.importorskip("jsonschema", reason="the reference validator (test extra)")


@pytest.mark.parametrize("name", sorted(examples()))
def test_every_example_validates_against_its_schema(name: str) -> None:
    msg = examples()[name]
    schema = json_schema(type(msg))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(json.loads(to_json(msg)), schema)  # NaN written as null


def test_a_wrong_field_type_and_an_unknown_field_fail_validation() -> None:
    schema = json_schema(type_for("geometry/Point"))
    with pytest.raises(jsonschema.ValidationError, match=r"'far' is not valid"):
        jsonschema.validate({"_type": "geometry/Point", "x": "far"}, schema)
    with pytest.raises(jsonschema.ValidationError, match=r"'w' was unexpected"):
        jsonschema.validate({"_type": "geometry/Point", "w": 1.0}, schema)
    jsonschema.validate({"_type": "geometry_msgs/msg/Point", "x": None}, schema)


def test_int_primitives_carry_their_bounds() -> None:
    schema = json_schema(type_for("std/Time"))
    with pytest.raises(jsonschema.ValidationError, match=r"2147483648 is greater than"):
        jsonschema.validate({"_type": "std/Time", "sec": 2**31}, schema)


def test_schema_command_prints_strict_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "nav_msgs/msg/Odometry"]) == 0
    printed = json.loads(capsys.readouterr().out, parse_constant=lambda c: 1 / 0)
    assert printed == json_schema(type_for("nav/Odometry"))
    assert main(["schema", "nope/Nothing"]) == 2
    assert "got 'nope/Nothing'" in capsys.readouterr().err


def test_schema_of_a_bare_name_suggests_the_family(capsys: pytest.CaptureFixture[str]) -> None:
    """``schema imuu`` (a name as ROS users say it, mistyped) names ``sensor/Imu``, not all
    154 types. ``schema Imu`` or ``imu``, the name of one type, is that type
    (``tests/cli/test_schema.py``).
    """
    assert main(["schema", "imuu"]) == 2
    err = capsys.readouterr().err
    assert "got 'imuu'; did you mean sensor/Imu" in err
    assert main(["schema", "odometryy"]) == 2
    assert "did you mean nav/Odometry" in capsys.readouterr().err


# --------------------------------------------------------------------------- the schema, the decoder

#: Strings JSON text spells (escaped) and UTF-8 cannot encode, so no message holds them:
#: a lone high surrogate, a lone low one, a pair in the wrong order, a high one before a letter.
_LONE_SURROGATES = ["\ud800", "\udfff", "\ude00\ud83d", "\ud83dx"]
#: Values no field of the given kind takes (the decoder and the schema must both refuse).
_WRONG: dict[str, list[object]] = {
    "float": ["x", True, [], "inf", {"a": 1}],
    "float32": ["x", True, 1e39, -1e39, "inf"],
    "int": ["1", 1.5, True, None, []],
    "str": [1, None, True, [], *_LONE_SURROGATES],
    "bool": [1, "true", None],
    "literal": ["not one of them", 1, None],
    "scalar": [[1], {"a": 1}, *_LONE_SURROGATES],
    "value": [[[1]], {"a": 1}, [None], *_LONE_SURROGATES, ["x", "\ud800"]],
    "msg": ["x", 1, [], None],
    "tuple": ["x", {"a": 1}, 1],
    "mapping": [[], "x", 1],
}
#: Spellings every float takes (both must accept, where no rule of the type refuses them).
_NON_FINITE_TEXT = [None, "NaN", "Infinity", "-Infinity", -0.0, 1e308]


def _array_mutations(spec: FieldSpec, value: dict[str, Any]) -> Iterator[object]:
    assert spec.dtype is not None
    other = "int8" if spec.dtype != np.int8 else "float64"
    yield {**value, "dtype": other}
    yield {**value, "dtype": "no-such-dtype"}
    yield {**value, "shape": ["a"]}
    yield {**value, "shape": [*value["shape"], 1, 1]}
    yield {**value, "extra": 1}
    yield {k: v for k, v in value.items() if k != "data"}
    if value["data"]:
        yield {**value, "data": ["x", *value["data"][1:]]}
        if spec.dtype.kind in "iu":
            info = np.iinfo(spec.dtype)
            yield {**value, "data": [int(info.max) + 1, *value["data"][1:]]}
            yield {**value, "data": [int(info.min) - 1, *value["data"][1:]]}
        if spec.dtype == np.float32:
            yield {**value, "data": [1e39, *value["data"][1:]]}
    dims = spec.shape.dims if spec.shape is not None else ()
    if dims and all(isinstance(d, int) for d in dims):
        yield {**value, "data": [*value["data"], 0]}  # one value more than the fixed shape


def _mutations(cls: type[Msg], doc: dict[str, Any], depth: int = 0) -> Iterator[tuple[str, Any]]:
    """Every one-place change of ``doc`` (a ``cls`` JSON form) the decoder must refuse."""
    yield "unknown key", {**doc, "zzz": 1}
    yield "_type", {**doc, "_type": "geometry/Nope"}
    defaults = set(
        cls.__struct_fields__[len(cls.__struct_fields__) - len(cls.__struct_defaults__) :]
    )
    for name in set(cls.__struct_fields__) - defaults:
        yield f"no {name}", {k: v for k, v in doc.items() if k != name}
    for name, spec in field_schema(cls).items():
        inner = spec.inner if spec.kind == "optional" else spec
        value = doc[name]
        if inner is None or (spec.kind == "optional" and value is None):
            continue
        if inner.kind == "array":
            for changed in _array_mutations(inner, value):
                yield f"{name} {changed}", {**doc, name: changed}
            continue
        for wrong in _WRONG.get(inner.kind, []) + _out_of_bounds(inner):
            if wrong is None and spec.kind == "optional":
                continue
            yield f"{name} = {wrong!r}", {**doc, name: wrong}
        if inner.kind == "int" and inner.bounds is not None:
            low, high = inner.bounds
            yield f"{name} above", {**doc, name: high + 1}
            yield f"{name} below", {**doc, name: low - 1}
        if inner.kind == "msg" and depth < 2:
            for label, changed in _mutations(inner.msg_type, value, depth + 1):
                yield f"{name}.{label}", {**doc, name: changed}
        if inner.kind == "tuple" and value and inner.inner is not None:
            item = inner.inner
            if item.kind == "msg" and depth < 2:
                for label, changed in _mutations(item.msg_type, value[0], depth + 1):
                    yield f"{name}[0].{label}", {**doc, name: [changed, *value[1:]]}
            wrongs = _WRONG.get(item.kind, [])[:2] + _out_of_bounds(item)
            for wrong in wrongs + _text_only(item, _LONE_SURROGATES):
                yield f"{name}[0] = {wrong!r}", {**doc, name: [wrong, *value[1:]]}
        if inner.kind == "mapping" and value and inner.inner is not None:
            key, first = next(iter(value.items()))
            for lone in _LONE_SURROGATES:
                yield f"{name} key {lone!r}", {**doc, name: {**value, lone: first}}
            for wrong in _text_only(inner.inner, _LONE_SURROGATES):
                yield f"{name}[{key!r}] = {wrong!r}", {**doc, name: {**value, key: wrong}}


def _out_of_bounds(spec: FieldSpec) -> list[object]:
    """The spellings of non-finite floats a bounded float (``Meta(gt=0)``...) refuses.

    NaN (``null``, ``"NaN"``) keeps no bound, ``-inf`` no lower one, ``inf`` no upper one:
    as msgspec's own check of the annotation says, value by value.
    """
    if spec.kind != "float" or not spec.constrained:
        return []
    values = {None: math.nan, "NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
    return [text for text, value in values.items() if not _keeps(value, spec.annotation)]


def _keeps(value: float, annotation: object) -> bool:
    try:
        msgspec.convert(value, annotation)
    except msgspec.ValidationError:
        return False
    return True


def _text_only(spec: FieldSpec, values: list[str]) -> list[object]:
    """``values`` where ``spec`` takes a string (a str, scalar or value), else none."""
    return list(values) if spec.kind in {"str", "scalar", "value"} else []


def _decoded(cls: type[Msg], doc: object) -> bool:
    try:
        robot_msgs.from_json(json.dumps(doc, allow_nan=False), cls)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(examples()))
def test_a_document_the_decoder_refuses_the_schema_refuses_too(name: str) -> None:
    msg = examples()[name]
    cls = type(msg)
    validator = jsonschema.Draft202012Validator(json_schema(cls))
    doc = json.loads(to_json(msg))
    assert validator.is_valid(doc)
    assert _decoded(cls, doc)
    checked = 0
    for label, mutated in _mutations(cls, doc):
        assert not _decoded(cls, mutated), label
        assert not validator.is_valid(mutated), label
        checked += 1
    assert checked >= 2


def test_an_integral_float_in_an_int_is_the_known_divergence() -> None:
    """The schema takes ``1.0`` in an int field or integer array, the decoder refuses it.

    Stated, not fixed: JSON Schema's ``integer`` is "any number with a zero fractional
    part" (draft 2020-12 validation, 6.1.1) and no keyword refuses ``1.0`` but takes ``1``;
    msgspec's decoder is strict, and its ``strict=False`` would take ``"1"`` as well, which
    the schema refuses. Held here so that a change on either side shows.
    """
    time = json.loads(to_json(examples()["std/Time"]))
    array = json.loads(to_json(examples()["std/Int32MultiArray"]))
    cases: list[tuple[type[Msg], Any, Any]] = [
        (type_for("std/Time"), {**time, "sec": 1}, {**time, "sec": 1.0}),
        (
            type_for("std/Int32MultiArray"),
            {**array, "data": {**array["data"], "data": [1, *array["data"]["data"][1:]]}},
            {**array, "data": {**array["data"], "data": [1.0, *array["data"]["data"][1:]]}},
        ),
    ]
    for cls, whole, integral in cases:
        validator = jsonschema.Draft202012Validator(json_schema(cls))
        assert validator.is_valid(whole)
        assert _decoded(cls, whole)
        assert validator.is_valid(integral)  # JSON Schema: 1.0 is an integer
        assert not _decoded(cls, integral)  # msgspec: 1.0 is a float


def _own_rules(cls: type[Msg]) -> bool:
    """Whether ``cls`` or a type it nests has cross-field rules (which no schema states)."""
    from robot_msgs.msg import Msg

    if cls._validate is not Msg._validate:
        return True
    specs = field_schema(cls).values()
    nested = [s.msg_type for s in specs if s.kind == "msg"]
    nested += [s.inner.msg_type for s in specs if s.inner is not None and s.inner.kind == "msg"]
    return any(_own_rules(t) for t in nested)


@pytest.mark.parametrize(
    "name", sorted(n for n, m in examples().items() if not _own_rules(type(m)))
)
def test_every_spelling_of_a_float_is_taken_by_both(name: str) -> None:
    msg = examples()[name]
    cls = type(msg)
    validator = jsonschema.Draft202012Validator(json_schema(cls))
    doc = json.loads(to_json(msg))
    for field, spec in field_schema(cls).items():
        if spec.kind not in {"float", "float32"}:
            continue
        for spelling in _NON_FINITE_TEXT:
            if spec.kind == "float32" and spelling == 1e308:
                continue  # beyond float32: both refuse (above)
            changed = {**doc, field: spelling}
            assert validator.is_valid(changed), (field, spelling)
            assert _decoded(cls, changed), (field, spelling)


#: A character beyond the BMP: one code point in JSON read raw or from its escaped
#: surrogate pair (``"\ud83d\ude00"``), which both must take (the pattern that refuses a
#: lone surrogate must not refuse a pair).
_ASTRAL = "a\U0001f600b"


def _astral_changes(
    cls: type[Msg], doc: dict[str, Any], depth: int = 0
) -> Iterator[tuple[str, Any]]:
    """``doc`` with ``_ASTRAL`` in each string a field holds: a value, an item, a key."""
    for name, spec in field_schema(cls).items():
        inner = spec.inner if spec.kind == "optional" else spec
        value = doc[name]
        if inner is None:
            continue
        item = inner.inner
        if inner.kind == "msg" and value is not None and depth < 2:
            for label, changed in _astral_changes(inner.msg_type, value, depth + 1):
                yield f"{name}.{label}", {**doc, name: changed}
        elif inner.kind in {"str", "scalar", "value"}:
            yield name, {**doc, name: _ASTRAL}
        elif inner.kind == "tuple" and item is not None and item.kind == "str":
            yield f"{name}[0]", {**doc, name: [_ASTRAL, *(value or [])[1:]]}
        elif inner.kind == "mapping" and item is not None and value:
            key, first = next(iter(value.items()))
            yield f"{name} key", {**doc, name: {**value, _ASTRAL: first}}
            if item.kind in {"str", "scalar", "value"}:
                yield f"{name}[{key!r}]", {**doc, name: {**value, key: _ASTRAL}}


@pytest.mark.parametrize(
    "name", sorted(n for n, m in examples().items() if not _own_rules(type(m)))
)
def test_a_string_beyond_the_bmp_is_taken_by_both(name: str) -> None:
    """Raw in UTF-8 or as its escaped pair, an emoji in a string is valid to both.

    Types with rules of their own (a metric's name among those known) are left out.
    """
    msg = examples()[name]
    cls = type(msg)
    validator = jsonschema.Draft202012Validator(json_schema(cls))
    doc = json.loads(to_json(msg))
    for label, changed in _astral_changes(cls, doc):
        assert validator.is_valid(changed), label
        escaped = json.dumps(changed, allow_nan=False)
        assert "\\ud83d\\ude00" in escaped
        assert json.loads(escaped) == changed  # the pair is one code point to Python too
        robot_msgs.from_json(escaped, cls)
        robot_msgs.from_json(json.dumps(changed, allow_nan=False, ensure_ascii=False), cls)


#: Bounded floats and the spellings of non-finite floats each takes, by hand from the bounds:
#: NaN (``null``, ``"NaN"``) is within no bound, ``inf`` within lower bounds only, ``-inf``
#: within upper bounds only. ``Drift.lengths_m``'s items are ``> 0``. A field declared
#: ``FINITE`` takes none (``delta`` and ``lengths_m``, whose bounds alone would take inf).
_BOUNDED: list[tuple[str, str, list[str]]] = [
    ("evaluation/EvaluationSettings", "confidence", []),  # 0 < x < 1
    ("evaluation/PairSettings", "delta", []),  # x > 0, FINITE
    ("evaluation/PairSettings", "delta_tol", []),  # 0 <= x < 1
    ("runs/RunSettings", "min_coverage", []),  # 0 <= x <= 1
    ("evaluation/Drift", "lengths_m", []),  # items > 0, FINITE
]


@pytest.mark.parametrize(("name", "field", "taken"), _BOUNDED)
def test_a_bounded_float_takes_only_the_non_finite_spellings_within_its_bounds(
    name: str, field: str, taken: list[str]
) -> None:
    """A bound applies to numbers only: the schema took ``"NaN"`` in ``0 < confidence < 1``."""
    cls = type_for(name)
    validator = jsonschema.Draft202012Validator(json_schema(cls))
    doc = json.loads(to_json(examples()[name]))
    for spelling in (None, "NaN", "Infinity", "-Infinity"):
        value = [spelling] if isinstance(doc[field], list) else spelling
        changed = {**doc, field: value}
        assert validator.is_valid(changed) is (spelling in taken), (field, spelling)
        if spelling not in taken:
            assert not _decoded(cls, changed), (field, spelling)


#: The counts each type refused below 0 in its own ``_validate``, now declared ``Count``.
_COUNTS = [
    ("compare/ErrorStats", "n"),
    ("compare/StepResponse", "n"),
    ("compare/TimeOffset", "n_poses"),
    ("compare/Latency", "n_frames"),
    ("compare/Resources", "n_samples"),
    ("compare/RunReport", "n_estimate"),
    ("compare/RunReport", "n_valid"),
    ("compare/Alignment", "n_fit"),
    ("compare/Extrinsic", "n_poses"),
    ("compare/Extrinsic", "n_pairs"),
    ("compare/SpatialMatch", "n_reference"),
    ("compare/SpatialMatch", "n_within"),
    ("compare/SpatialMatch", "n_backward"),
    ("compare/SpatialMatch", "n_estimate"),
    ("compare/SpatialMatch", "n_shared"),
    ("compare/RankingRow", "n_runs"),
]


@pytest.mark.parametrize(("name", "field"), _COUNTS)
@pytest.mark.parametrize("count", [-1, -(2**62)])
def test_a_negative_count_is_refused_by_the_schema_as_by_the_decoder(
    name: str, field: str, count: int
) -> None:
    """``ErrorStats`` with ``n: -1`` passed the published schema and the decoder refused
    it ("a count >= 0", said by each type's ``_validate``); a count is declared once
    (``Count``), which the decoder, the constructor and the schema all read."""
    cls = type_for(name)
    doc = {**json.loads(to_json(examples()[name])), field: count}
    validator = jsonschema.Draft202012Validator(json_schema(cls))
    assert not validator.is_valid(doc)
    said = rf"^Expected a count >= 0, got int {count} - at `{cls.__name__}\.{field}`$"
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(json.dumps(doc), cls)
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_dict(doc)


@pytest.mark.parametrize(("name", "field"), _COUNTS)
@pytest.mark.parametrize("count", [2**63, 2**64 - 1, 2**64])
def test_a_count_past_int64_is_said_past_its_range_not_below_0(
    name: str, field: str, count: int
) -> None:
    """A count is ROS's int64: one past it was said "Expected a count >= 0, got int
    9223372036854775808", a count >= 0 it is. Its range is said, as before ``Count``."""
    cls = type_for(name)
    doc = {**json.loads(to_json(examples()[name])), field: count}
    validator = jsonschema.Draft202012Validator(json_schema(cls))
    assert not validator.is_valid(doc)
    said = (
        rf"^Expected int \(int64, 0\.\.9223372036854775807\), got int {count} - "
        rf"at `{cls.__name__}\.{field}`$"
    )
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(json.dumps(doc), cls)
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_dict(doc)
    with pytest.raises(ValidationError, match=said):
        examples()[name].replace(**{field: count})
    got = r"^Expected int \(int64, 0\.\.9223372036854775807\), got uint64 np\.uint64\("
    with pytest.raises(ValidationError, match=got):
        examples()[name].replace(**{field: np.uint64(2**64 - 1)})


@pytest.mark.parametrize("position", [0, -1, -(2**62)])
def test_a_ranking_position_below_1_is_refused_by_the_schema_as_by_the_decoder(
    position: int,
) -> None:
    """``RankingRow`` with ``position: 0`` passed the published schema and the decoder
    refused it ("a position >= 1", said by its ``_validate``): declared once (``Position``),
    the schema says ``"minimum": 1``, and every road says the same."""
    cls = type_for("compare/RankingRow")
    doc = {**json.loads(to_json(examples()["compare/RankingRow"])), "position": position}
    assert json_schema(cls)["$defs"]["RankingRow"]["properties"]["position"]["minimum"] == 1
    validator = jsonschema.Draft202012Validator(json_schema(cls))
    assert not validator.is_valid(doc)
    assert validator.is_valid({**doc, "position": 1})
    said = rf"^Expected a position >= 1, got int {position} - at `RankingRow\.position`$"
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_json(json.dumps(doc), cls)
    with pytest.raises(ValidationError, match=said):
        robot_msgs.from_dict(doc)
    with pytest.raises(ValidationError, match=said):
        examples()["compare/RankingRow"].replace(position=position)
