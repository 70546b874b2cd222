"""CDR straight to and from the package's messages, by rosbags' own code generators.

rosbags turns each ROS 2 definition into Python functions that (de)serialise CDR
(``rosbags.serde.cdr``): a serialiser reads ``message.<field>`` for each field of the
definition, a deserialiser calls ``cls(*values)`` with the values in the definition's
order, and both look nested types up in the type store passed to them. This module
hands those very functions a type store of its own (:class:`CdrStore`, the same Humble
definitions) whose classes are the package's messages: a deserialiser builds robot_msgs
messages directly (through a small generated factory that calls the class with keywords,
reshapes ROS's flat fixed arrays into the declared matrices and carries ``nanosec``), and
a serialiser reads them directly (through a generated adapter for the few types whose
numeric arrays or tuples are not held as the flat contiguous arrays the code expects).
The bytes are rosbags' bytes; no CDR code is written here.

WHY not through rosbags' objects (``to_ros`` then ``serialize_cdr``, ``deserialize_cdr``
then ``from_ros``): building the intermediate objects field by field cost 2.9-3.9x
rosbags' own serialise/deserialise for Pose, Odometry and Imu; straight through, the
ratios are within 1.3x (``benchmarks/bench_messages.py``).

ROS's ``byte`` is an octet, ``0..255``; rosbags' generated code treats it as a signed
``int8``. The store here declares ``byte`` as ``uint8`` (the same single octet on the
wire), so a byte of 200 is 200 both ways.
"""

from __future__ import annotations

import functools
import struct
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.msg import field_schema

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.msg import Msg

__all__ = ["CdrStore", "cdr_store", "deserialize", "same_definition", "serialize"]

#: rosbags' Nodetype values (``rosbags.interfaces.Nodetype``), fixed by its wire format.
_BASE, _NAME, _ARRAY, _SEQUENCE = 1, 2, 3, 4

_NUMPY = {
    "bool": "bool_",
    "byte": "uint8",
    "char": "uint8",
    "int8": "int8",
    "uint8": "uint8",
    "int16": "int16",
    "uint16": "uint16",
    "int32": "int32",
    "uint32": "uint32",
    "int64": "int64",
    "uint64": "uint64",
    "float32": "float32",
    "float64": "float64",
}


class MsgDef(NamedTuple):
    """What rosbags' generated code asks of a type store's ``get_msgdef`` (its ``Msgdef``)."""

    name: str
    fields: list[tuple[str, Any]]
    cls: Callable[..., Any]
    size_cdr: int
    getsize_cdr: Callable[..., int]
    serialize_cdr_le: Callable[..., int]
    serialize_cdr_be: Callable[..., int]
    deserialize_cdr_le: Callable[..., tuple[Any, int]]
    deserialize_cdr_be: Callable[..., tuple[Any, int]]


def _octets(desc: Any) -> Any:
    """``desc`` with ROS ``byte`` read as ``uint8`` (the same octet on the wire)."""
    kind = int(desc[0])
    if kind == _BASE:
        return (desc[0], ("uint8", 0)) if desc[1][0] == "byte" else desc
    if kind in (_ARRAY, _SEQUENCE):
        sub, length = desc[1]
        return (desc[0], (_octets(sub), length))
    return desc


class CdrStore:
    """The type store rosbags' generated CDR functions run against: robot_msgs classes.

    Parameters
    ----------
    fielddefs : mapping
        rosbags' field definitions by ROS type name (a rosbags ``Typestore.fielddefs``).
    classes : callable
        ``classes(ros_name)``: the robot_msgs class of a ROS 2 type name.
    max_sequence_length : int
        The longest sequence a message may declare (rosbags' guard against bad counts).
    """

    def __init__(
        self,
        fielddefs: dict[str, Any],
        classes: Callable[[str], type[Msg]],
        max_sequence_length: int,
    ) -> None:
        self.fielddefs = fielddefs
        self.max_sequence_length = max_sequence_length
        self._classes = classes
        self._cache: dict[str, MsgDef] = {}

    def get_msgdef(self, typename: str) -> MsgDef:
        """Return the definition and generated functions of ``typename`` (made once)."""
        found = self._cache.get(typename)
        if found is None:
            found = self._cache[typename] = self._make(typename)
        return found

    def _make(self, typename: str) -> MsgDef:
        cdr = sys.modules.get("rosbags.serde.cdr") or __import__(
            "rosbags.serde.cdr", fromlist=["generate_getsize_cdr"]
        )
        fields = [(name, _octets(desc)) for name, desc in self.fielddefs[typename][1]]
        cls = self._classes(typename)
        getsize, size = cdr.generate_getsize_cdr(fields, self)
        adapt = _adapter(fields)
        ser_le = cdr.generate_serialize_cdr(fields, self, "le")
        ser_be = cdr.generate_serialize_cdr(fields, self, "be")
        if adapt is not None:
            getsize = _sized(getsize, adapt)
            ser_le, ser_be = _written(ser_le, adapt), _written(ser_be, adapt)
        return MsgDef(
            typename,
            fields,
            _factory(cls, fields),
            size,
            getsize,
            ser_le,
            ser_be,
            cdr.generate_deserialize_cdr(fields, self, "le"),
            cdr.generate_deserialize_cdr(fields, self, "be"),
        )


def _sized(func: Callable[..., int], adapt: Callable[[Any], Any]) -> Callable[..., int]:
    return lambda pos, message, typestore: func(pos, adapt(message), typestore)


def _written(func: Callable[..., int], adapt: Callable[[Any], Any]) -> Callable[..., int]:
    return lambda rawdata, pos, message, typestore: func(rawdata, pos, adapt(message), typestore)


def _numeric(desc: Any) -> str | None:
    """Return the NumPy dtype of a fixed array or sequence of numbers, else ``None``."""
    if int(desc[0]) in (_ARRAY, _SEQUENCE):
        sub = desc[1][0]
        if int(sub[0]) == _BASE and sub[1][0] in _NUMPY:
            return _NUMPY[sub[1][0]]
    return None


def _compile(source: str, namespace: dict[str, Any], name: str) -> Callable[..., Any]:
    exec(compile(source, f"<robot_msgs.cdr {name}>", "exec"), namespace)  # noqa: S102 - our own text
    made: Callable[..., Any] = namespace[name]
    return made


def _factory(cls: type[Msg], fields: list[tuple[str, Any]]) -> Callable[..., Any]:
    """Generate ``make(*values)``: the ``cls`` message of one definition's values, in order.

    A flat fixed array becomes the declared matrix, a numeric sequence held as a tuple a
    tuple, a message sequence a tuple; ``Time``/``Duration`` carry a ``nanosec`` of a
    second or more into ``sec`` (ROS allows it, the message does not: the same instant).
    """
    specs = field_schema(cls)
    names = [f"v{i}" for i in range(len(fields))]
    args = []
    for (field, desc), name in zip(fields, names, strict=True):
        spec = specs[field]
        kind = spec.kind
        value = name
        if kind == "array" and spec.shape is not None and len(spec.shape.dims) > 1:
            dims = spec.shape.dims
            if all(isinstance(d, int) for d in dims):
                value = f"{name}.reshape({tuple(dims)!r})"
        elif kind == "tuple" and _numeric(desc) is not None:
            value = f"tuple({name}.tolist())"
        elif kind == "tuple":
            value = f"tuple({name})"
        args.append(f"{field}={value}")
    if cls.TYPE in {"std/Time", "std/Duration"}:
        body = (
            "    if v1 >= 1000000000:\n"
            "        v0, v1 = v0 + v1 // 1000000000, v1 % 1000000000\n"
            "    return cls(sec=v0, nanosec=v1)\n"
        )
    else:
        body = f"    return cls({', '.join(args)})\n"
    source = f"def make({', '.join(names)}):\n{body}"
    return _compile(source, {"cls": cls}, "make")


def _adapter(fields: list[tuple[str, Any]]) -> Callable[[Any], Any] | None:
    """Generate ``adapt(message)`` where a field is not what rosbags' serialiser expects.

    It expects each numeric array or sequence as a flat, contiguous NumPy array of the
    ROS element type; the message may hold a matrix, a tuple or a strided view.
    ``None`` when every field is already fit.
    """
    parts = []
    needed = False
    for field, desc in fields:
        dtype = _numeric(desc)
        if dtype is None:
            parts.append(f"{field}=m.{field}")
            continue
        needed = True
        parts.append(f"{field}=_flat(m.{field}, _np.{dtype})")
    if not needed:
        return None
    source = f"def adapt(m):\n    return _ns({', '.join(parts)})\n"
    return _compile(source, {"_ns": SimpleNamespace, "_np": np, "_flat": _flat}, "adapt")


def _flat(value: Any, dtype: Any) -> np.ndarray[Any, Any]:
    out: np.ndarray[Any, Any] = np.ascontiguousarray(value, dtype=dtype).reshape(-1)
    return out


@functools.cache
def cdr_store() -> CdrStore:
    """Return the package's :class:`CdrStore` (ROS 2 Humble definitions, made once)."""
    from robot_msgs.ros import _class_for, humble_typestore  # noqa: PLC0415 - loaded on use

    store = humble_typestore()
    return CdrStore(store.fielddefs, _class_for, store.max_sequence_length)


def serialize(msg: Msg, ros_type: str) -> bytes:
    """Return ``msg`` as little-endian CDR of ``ros_type`` (its ROS 2 equivalent)."""
    store = cdr_store()
    msgdef = store.get_msgdef(ros_type)
    size = 4 + msgdef.getsize_cdr(0, msg, store)
    raw = bytearray(size)
    raw[1] = 1  # CDR_LE encapsulation: 00 01 00 00
    msgdef.serialize_cdr_le(memoryview(raw)[4:], 0, msg, store)
    return bytes(raw)


def deserialize(data: bytes | memoryview, ros_type: str) -> Msg:
    """Return the robot_msgs message of CDR bytes of ``ros_type``.

    Raises
    ------
    FormatError
        Not CDR of that type (cut short, a bad length, a string that is not UTF-8).
    ValidationError
        A value the message refuses, named by its field.
    """
    store = cdr_store()
    if len(data) < 4 or bytes(data[:2]) not in {b"\x00\x00", b"\x00\x01"}:
        head = bytes(data[:4])
        msg = f"Expected CDR data of {ros_type} (a 4-byte encapsulation header), got {head!r}"
        raise FormatError(msg)
    msgdef = store.get_msgdef(ros_type)
    func = msgdef.deserialize_cdr_le if data[1] else msgdef.deserialize_cdr_be
    serde = sys.modules["rosbags.serde"]
    try:
        message, pos = func(memoryview(data)[4:], 0, msgdef.cls, store)
    except ValidationError:
        raise
    except (struct.error, UnicodeDecodeError, ValueError, IndexError, serde.SerdeError) as err:
        msg = f"Expected CDR data of {ros_type}, got bytes it cannot hold: {err}"
        raise FormatError(msg) from err
    if pos + 4 + 3 < len(data):
        msg = f"Expected CDR data of {ros_type}, got {len(data) - pos - 4} bytes too many"
        raise FormatError(msg)
    made: Msg = message
    return made


def same_definition(store: Any, name: str, seen: set[str] | None = None) -> bool:
    """Whether ``store`` (a rosbags type store) defines ``name`` as Humble does, nested too.

    A bag written on another ROS distribution may define a type differently; its bytes
    are then read by the bag's own definition, not by this store's.
    """
    ours = cdr_store().fielddefs
    seen = set() if seen is None else seen
    if name in seen:
        return True
    seen.add(name)
    theirs = store.fielddefs.get(name)
    mine = ours.get(name)
    if theirs is None or mine is None or list(theirs[1]) != list(mine[1]):
        return False
    for _, desc in mine[1]:
        nested = desc[1] if int(desc[0]) == _NAME else None
        if int(desc[0]) in (_ARRAY, _SEQUENCE) and int(desc[1][0][0]) == _NAME:
            nested = desc[1][0][1]
        if nested is not None and not same_definition(store, nested, seen):
            return False
    return True
