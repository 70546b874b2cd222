"""The laws every registered message type keeps, stated over drawn edge values (Hypothesis).

``==``, ``!=`` and ``hash`` agree; every round trip (dict, JSON, pickle, copy, CDR, a bag)
returns an equal message; JSON is strict; the CDR bytes are rosbags' own; the fast
construction check keeps only what the full one would. The values are drawn by
:mod:`tests.msg.strategies`: NaN, ±inf, -0.0, bounds, empty and unicode text, empty and
full-range arrays.
"""

from __future__ import annotations

import contextlib
import copy
import json
import pickle
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import force_setattr

import robot_msgs
import robot_msgs.msg.check as check_module
from robot_msgs.errors import ValidationError
from robot_msgs.geometry import Point
from robot_msgs.msg import Msg, field_schema, to_dict_keeping_arrays
from robot_msgs.msg.catalog import examples
from robot_msgs.msg.check import check_fields
from robot_msgs.msg.fields import FrozenMap, values_equal
from tests.msg.strategies import messages, rosbags_object

TYPES = sorted(examples())
LAWS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _refuse(token: str) -> None:
    msg = f"not strict JSON: {token}"
    raise AssertionError(msg)


@pytest.mark.parametrize("name", TYPES)
@LAWS
@given(data=st.data())
def test_equal_means_not_unequal_and_the_same_hash(name: str, data: st.DataObject) -> None:
    cls = robot_msgs.type_for(name)
    a, b = data.draw(messages(cls)), data.draw(messages(cls))
    twin = cls.from_dict(a.to_dict())
    assert a == a  # noqa: PLR0124 - the law itself
    assert not a != a  # noqa: PLR0124, SIM202 - the law itself
    assert a == twin
    assert not a != twin  # noqa: SIM202
    assert hash(a) == hash(twin)
    assert (a != b) is (not a == b)  # noqa: SIM201
    if a == b:
        assert hash(a) == hash(b)
    assert a != object()
    assert not a == object()  # noqa: SIM201


@pytest.mark.parametrize("name", TYPES)
@LAWS
@given(data=st.data())
def test_every_round_trip_returns_an_equal_message(name: str, data: st.DataObject) -> None:
    cls = robot_msgs.type_for(name)
    msg = data.draw(messages(cls))
    assert robot_msgs.from_dict(msg.to_dict()) == msg
    text = robot_msgs.to_json(msg)
    json.loads(text, parse_constant=_refuse)  # strict: no NaN, Infinity tokens
    assert robot_msgs.from_json(text) == msg
    assert robot_msgs.from_json(text, cls) == msg
    assert pickle.loads(pickle.dumps(msg)) == msg
    assert copy.deepcopy(msg) == msg
    assert cls(**msg.as_dict()) == msg


@pytest.mark.parametrize("name", TYPES)
@LAWS
@given(data=st.data())
def test_the_fast_check_keeps_only_what_the_full_check_keeps(
    name: str, data: st.DataObject
) -> None:
    cls = robot_msgs.type_for(name)
    msg = data.draw(messages(cls))
    again = copy.copy(msg)
    check_fields(again, field_schema(cls))  # the full check, field by field, in place
    for field in cls.__struct_fields__:
        kept, checked = getattr(msg, field), getattr(again, field)
        assert type(kept) is type(checked), field
        assert values_equal(kept, checked), field


MAPPED = [
    n
    for n in TYPES
    if any(s.kind == "mapping" for s in field_schema(robot_msgs.type_for(n)).values())
]


@pytest.mark.parametrize("name", MAPPED)
@LAWS
@given(data=st.data())
def test_numpy_str_keys_of_a_mapping_are_kept_as_the_plain_str_they_equal(
    name: str, data: st.DataObject
) -> None:
    """Keys handed over as `np.str_` (NumPy's, as `dict(zip(array_of_names, ...))` gives)
    were stored as given: `==`, `hash`, dict and JSON round trips held (an `np.str_`
    equals and hashes as its str), but the stored keys were NumPy's and the repr showed
    `np.str_('ape')`, unlike the same message built from str. Values were already plain."""
    cls = robot_msgs.type_for(name)
    msg = data.draw(messages(cls))
    mapped = [f for f, spec in field_schema(cls).items() if spec.kind == "mapping"]
    built = msg.replace(**{f: {np.str_(k): v for k, v in getattr(msg, f).items()} for f in mapped})
    assert all(type(k) is str for f in mapped for k in getattr(built, f))
    assert built == msg
    assert not built != msg  # noqa: SIM202 - the law itself
    assert hash(built) == hash(msg)
    assert repr(built) == repr(msg)
    assert pickle.loads(pickle.dumps(built)) == msg
    assert robot_msgs.from_dict(built.to_dict()) == msg
    assert robot_msgs.to_json(built) == robot_msgs.to_json(msg)
    assert robot_msgs.from_json(robot_msgs.to_json(built), cls) == msg


pytest.importorskip("rosbags", reason="CDR and bags need the bags extra (rosbags)")

from rosbags.typesys import Stores, get_typestore  # noqa: E402

from robot_msgs.io.bag_messages import read_messages, write_messages  # noqa: E402
from robot_msgs.ros import from_cdr, from_ros, to_cdr  # noqa: E402

ROSBAGS = get_typestore(Stores.ROS2_HUMBLE)  # rosbags' own store, not the package's


@pytest.mark.parametrize("name", TYPES)
@LAWS
@given(data=st.data())
def test_cdr_round_trips_and_its_bytes_are_rosbags_own(name: str, data: st.DataObject) -> None:
    cls = robot_msgs.type_for(name)
    msg = data.draw(messages(cls))
    raw = to_cdr(msg)
    assert from_cdr(raw, name) == msg
    if cls.ROS2 is not None:
        reference = rosbags_object(ROSBAGS, cls.ROS2, to_dict_keeping_arrays(msg))
        assert raw == bytes(ROSBAGS.serialize_cdr(reference, cls.ROS2))
        assert from_ros(ROSBAGS.deserialize_cdr(raw, cls.ROS2)) == msg


@pytest.mark.parametrize("name", TYPES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_bag_round_trip_returns_equal_messages(name: str, data: st.DataObject) -> None:
    cls = robot_msgs.type_for(name)
    batch = data.draw(st.lists(messages(cls), min_size=1, max_size=3))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "laws.mcap"
        write_messages(path, "/laws", batch, log_times_ns=range(len(batch)))
        assert list(read_messages(path, "/laws")) == batch


def test_equal_messages_of_different_values_hash_equal() -> None:
    point = Point
    assert point(x=0.0) == point(x=-0.0)
    assert not point(x=0.0) != point(x=-0.0)  # noqa: SIM202
    assert hash(point(x=0.0)) == hash(point(x=-0.0))
    assert point(x=float("nan")) == point(x=float("nan"))
    assert not point(x=float("nan")) != point(x=float("nan"))  # noqa: SIM202


@pytest.mark.parametrize("name", TYPES)
def test_not_equal_is_the_negation_of_equal_for_every_type(name: str) -> None:
    msg = examples()[name]
    twin = examples()[name]  # built again: equal, not the same object
    assert msg is not twin
    assert (msg != twin) is False
    assert (msg == twin) is True
    changed = _changed(msg)
    assert (msg != changed) is True
    assert (msg == changed) is False


def _changed(msg: Msg) -> Msg:
    """``msg`` with one field changed, whatever its type (a field its rules let change)."""
    for name, spec in field_schema(type(msg)).items():
        value = getattr(msg, name)
        candidates: list[object] = []
        if spec.kind in {"float", "float32"}:
            candidates = [1.0 if value != value else value + 1.0, 0.5]  # noqa: PLR0124
        elif spec.kind == "int" and spec.bounds is not None:
            candidates = [b for b in spec.bounds if b != value]
        elif spec.kind == "str":
            candidates = [value + "x"]
        elif spec.kind == "bool":
            candidates = [not value]
        elif spec.kind == "literal" and spec.choices:
            candidates = [c for c in spec.choices if c != value]
        elif spec.kind == "msg":
            candidates = [_changed(value)]
        elif spec.kind == "tuple":
            candidates = [value[:-1]] if value else []
        elif spec.kind == "array" and value.size:
            flipped = value.copy()
            flipped.flat[0] = 0 if flipped.flat[0] else 1
            candidates = [flipped, value[:0]]
        elif spec.kind == "optional" and value is not None:
            candidates = [None]  # a type of optional fields only (compare/Estimates)
        for candidate in candidates:
            with contextlib.suppress(ValidationError):  # the type's rules refuse this one
                return msg.replace(**{name: candidate})
    raise AssertionError(msg)


def _as_handed_over(value: object, kind: str) -> object:
    """A field value as users hand it over: lists, dicts, writable arrays, ints for floats.

    ``kind``: the field's; an int stands for a float only where the field is a float
    (in a settings value 0 and 0.0 are different values).
    """
    if isinstance(value, tuple):
        return [_as_handed_over(v, "") for v in value]
    if isinstance(value, FrozenMap):
        return {k: _as_handed_over(v, "") for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return value.copy()
    if kind == "float" and type(value) is float and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


_PYTHON_CHECKS: dict[type[Msg], Any] = {}


def _python_check(cls: type[Msg]) -> Any:
    """The class's generated check as a build without ``msg/_checks.c`` makes it."""
    found = _PYTHON_CHECKS.get(cls)
    if found is None:
        saved, check_module.COMPILED = check_module.COMPILED, None
        try:
            found = check_module.compile_check(
                cls, field_schema(cls), validate=cls._validate is not Msg._validate
            )
        finally:
            check_module.COMPILED = saved
        _PYTHON_CHECKS[cls] = found
    return found


@pytest.mark.parametrize("name", TYPES)
@LAWS
@given(data=st.data())
def test_construction_normalises_as_the_full_check_does(name: str, data: st.DataObject) -> None:
    """... and as the generated check without the compiled tests does: CI builds
    ``_checks.c``, so the road of a user without a compiler runs here."""
    cls = robot_msgs.type_for(name)
    msg = data.draw(messages(cls))
    specs = field_schema(cls)
    given = {f: _as_handed_over(getattr(msg, f), specs[f].kind) for f in cls.__struct_fields__}
    built = cls(**given)
    full, plain = copy.copy(msg), copy.copy(msg)
    for field, value in given.items():
        force_setattr(full, field, value)  # type: ignore[arg-type]  # a Struct at run time
        force_setattr(plain, field, value)  # type: ignore[arg-type]
    check_fields(full, field_schema(cls))  # the full check, field by field, on the same input
    _python_check(cls)(plain)  # the generated check's Python road, on the same input
    assert built == full == plain == msg
    for field in cls.__struct_fields__:
        ours = getattr(built, field)
        assert type(ours) is type(getattr(full, field)) is type(getattr(plain, field)), field
        if isinstance(ours, np.ndarray):
            assert not ours.flags.writeable, field
            assert not getattr(plain, field).flags.writeable, field
