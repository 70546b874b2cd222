"""Hypothesis strategies for every registered message type, with edge values in each field.

A message is drawn by starting from the type's catalog example (valid by construction)
and replacing fields, in a drawn order, by drawn values: NaN, ±inf, -0.0 and the extremes
(Hypothesis' ``floats()``), signalling, negative and payload NaNs (in arrays too), an
integer's bounds, empty and unicode strings, empty tuples and
arrays, arrays of every value of their dtype, text with a lone surrogate (refused by
every field). A replacement the type refuses (a cross-field rule: ``Image.data`` holding
``step * height`` bytes) is skipped, so every draw is valid.

Also :func:`rosbags_object`: rosbags' own object of a message, built from its ``to_dict()``
form (or :func:`~robot_msgs.msg.to_dict_keeping_arrays`, which keeps a float32 NaN's bits)
by walking rosbags' field definitions, without the package's converter.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from robot_msgs.errors import ValidationError
from robot_msgs.msg import field_schema
from robot_msgs.msg.arrays import NON_FINITE
from robot_msgs.msg.catalog import example

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from robot_msgs.msg import FieldSpec, Msg

__all__ = ["messages", "rosbags_object"]

_INT64 = (-(2**63), 2**63 - 1)
#: Text, and text no writer can write (a lone surrogate: refused, the draw keeps the valid one).
_TEXT = st.one_of(st.text(max_size=6), st.sampled_from(["\ud800", "a\udfffb"]))
_SCALAR_TEXT = _TEXT.filter(lambda t: t not in NON_FINITE)
#: The bits of NaNs that are not Python's own (signalling, negative, with a payload) and
#: of -0.0, by float size: what a binary file or CDR bytes hold, equal to nan and 0.0.
_ODD_BITS = {
    8: (0x7FF0000000000001, 0xFFF8000000000000, 0x7FF800000000BEEF, 0x8000000000000000),
    4: (0x7F800001, 0xFFC00000, 0x7FC0BEEF, 0x80000000),
    2: (0x7C01, 0xFE00, 0x7E01, 0x8000),
}
_FLOATS = st.one_of(
    st.floats(), st.sampled_from(np.array(_ODD_BITS[8], dtype=np.uint64).view(np.float64).tolist())
)


def _ints(low: int, high: int) -> SearchStrategy[int]:
    edges = sorted({v for v in (low, high, 0) if low <= v <= high})
    return st.one_of(st.sampled_from(edges), st.integers(low, high))


def _scalar(*, none: bool = True) -> SearchStrategy[Any]:
    options = [st.booleans(), _ints(*_INT64), _FLOATS, _SCALAR_TEXT]
    return st.one_of(st.none(), *options) if none else st.one_of(*options)


def _array(spec: FieldSpec) -> SearchStrategy[Any]:
    assert spec.dtype is not None
    dims = spec.shape.dims if spec.shape is not None else ("N",)
    shape = st.tuples(*(st.just(d) if isinstance(d, int) else st.integers(0, 4) for d in dims))
    drawn = hnp.arrays(spec.dtype, shape)
    if spec.dtype.kind != "f":
        return drawn
    bits = np.dtype(f"u{spec.dtype.itemsize}")
    odd = st.sampled_from(_ODD_BITS[spec.dtype.itemsize])
    dtype = spec.dtype
    return st.one_of(drawn, hnp.arrays(bits, shape, elements=odd).map(lambda a: a.view(dtype)))


def field_values(spec: FieldSpec, depth: int) -> SearchStrategy[Any]:
    """Values of one field, edge values included (valid alone; the type may refuse some)."""
    kind = spec.kind
    if kind == "float":
        return _FLOATS
    if kind == "float32":
        return st.floats(width=32)
    if kind == "int":
        low, high = spec.bounds or _INT64
        return _ints(low, high)
    if kind == "str":
        return _TEXT
    if kind == "bool":
        return st.booleans()
    if kind == "literal":
        assert spec.choices is not None
        return st.sampled_from(spec.choices)
    if kind == "scalar":
        return _scalar()
    if kind == "value":
        return st.one_of(_scalar(), st.lists(_scalar(none=False), max_size=3).map(tuple))
    if kind == "msg":
        return messages(spec.msg_type, depth + 1)
    if kind == "optional":
        assert spec.inner is not None
        return st.one_of(st.none(), field_values(spec.inner, depth))
    if kind == "tuple":
        assert spec.inner is not None
        return st.lists(field_values(spec.inner, depth + 1), max_size=3).map(tuple)
    if kind == "mapping":
        assert spec.inner is not None
        return st.dictionaries(_TEXT, field_values(spec.inner, depth + 1), max_size=3)
    if kind == "array":
        return _array(spec)
    return st.none()


@st.composite
def _drawn(draw: st.DrawFn, cls: type[Msg], depth: int) -> Msg:
    current = example(cls.TYPE)
    if depth > 2:
        return current
    specs = field_schema(cls)
    for name in draw(st.permutations(list(specs))):
        if draw(st.booleans()):
            value = draw(field_values(specs[name], depth))
            with contextlib.suppress(ValidationError):  # a cross-field rule: keep the valid one
                current = current.replace(**{name: value})
    return current


def messages(cls: type[Msg], depth: int = 0) -> SearchStrategy[Msg]:
    """Valid ``cls`` messages with edge values in their fields."""
    return _drawn(cls, depth)


# --------------------------------------------------------------------------- rosbags' objects

_NUMERIC = {
    "bool": "bool", "byte": "int8", "char": "uint8", "int8": "int8", "uint8": "uint8",
    "int16": "int16", "uint16": "uint16", "int32": "int32", "uint32": "uint32",
    "int64": "int64", "uint64": "uint64", "float32": "float32", "float64": "float64",
}  # fmt: skip


def rosbags_object(store: Any, ros_type: str, data: dict[str, Any]) -> Any:
    """Return rosbags' object of ``ros_type`` from a ``to_dict()`` form (ROS byte signed).

    Arrays may be left arrays (``to_dict_keeping_arrays``): a float32 NaN's payload
    survives, where a list of Python floats would quiet it.
    """
    fields = store.fielddefs[ros_type][1]
    return store.types[ros_type](**{n: _value(store, node, data[n]) for n, node in fields})


def _value(store: Any, node: Any, data: Any) -> Any:
    kind, arg = int(node[0]), node[1]
    if kind == 1:  # a base type: the JSON value, a byte as rosbags' signed int8
        return data - 256 if arg[0] == "byte" and data > 127 else data
    if kind == 2:
        return rosbags_object(store, arg, data)
    (sub_kind, sub_arg), _ = arg
    flat = data["data"] if isinstance(data, dict) else data
    if int(sub_kind) == 1 and sub_arg[0] in _NUMERIC:
        dtype = _NUMERIC[sub_arg[0]]
        if sub_arg[0] == "byte":
            return np.array(flat, dtype=np.uint8).reshape(-1).view(np.int8)
        return np.array(flat, dtype=dtype).reshape(-1)
    if int(sub_kind) == 1:
        return list(flat)
    return [rosbags_object(store, sub_arg, item) for item in flat]
