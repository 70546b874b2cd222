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

import struct
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from msgspec.structs import force_setattr

from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.msg import Msg, field_schema
from robot_msgs.msg.base import derive_source
from robot_msgs.msg.primitives import BOUNDS

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["CdrStore", "MsgDef"]

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
        self._encoders: dict[str, Callable[[Any], memoryview]] = {}
        self._decoders: dict[str, Callable[[bytes | bytearray | memoryview], Msg]] = {}

    def get_msgdef(self, typename: str) -> MsgDef:
        """Return the definition and generated functions of ``typename`` (made once)."""
        found = self._cache.get(typename)
        if found is None:
            found = self._cache[typename] = self._make(typename)
        return found

    def encoder(self, ros_type: str) -> Callable[[Any], memoryview]:
        """Return the function writing a message as CDR of ``ros_type`` (made once)."""
        found = self._encoders.get(ros_type)
        if found is None:
            found = self._encoders[ros_type] = _encoder(self, ros_type)
        return found

    def decoder(self, ros_type: str) -> Callable[[bytes | bytearray | memoryview], Msg]:
        """Return the function reading CDR bytes of ``ros_type`` as a message (made once).

        It raises :class:`~robot_msgs.errors.FormatError` for bytes that are not CDR of
        the type, :class:`~robot_msgs.errors.ValidationError` for a value the message
        refuses.
        """
        found = self._decoders.get(ros_type)
        if found is None:
            found = self._decoders[ros_type] = _decoder(self, ros_type)
        return found

    def same_definition(self, other: Any, name: str, seen: set[str] | None = None) -> bool:
        """Whether ``other`` (a rosbags type store) defines ``name`` as this one, nested too.

        A bag written on another ROS distribution may define a type differently; its
        bytes are then read by the bag's own definition, not by this store's.
        """
        seen = set() if seen is None else seen
        if name in seen:
            return True
        seen.add(name)
        theirs, mine = other.fielddefs.get(name), self.fielddefs.get(name)
        if theirs is None or mine is None or list(theirs[1]) != list(mine[1]):
            return False
        for _, desc in mine[1]:
            nested = desc[1] if int(desc[0]) == _NAME else None
            if int(desc[0]) in (_ARRAY, _SEQUENCE) and int(desc[1][0][0]) == _NAME:
                nested = desc[1][0][1]
            if nested is not None and not self.same_definition(other, nested, seen):
                return False
        return True

    def _make(self, typename: str) -> MsgDef:
        cdr = sys.modules.get("rosbags.serde.cdr") or __import__(
            "rosbags.serde.cdr", fromlist=["generate_getsize_cdr"]
        )
        fields = [(name, _octets(desc)) for name, desc in self.fielddefs[typename][1]]
        cls = self._classes(typename)
        getsize, size = cdr.generate_getsize_cdr(fields, self)
        adapt = _adapter(cls, fields)
        ser_le = cdr.generate_serialize_cdr(fields, self, "le")
        ser_be = cdr.generate_serialize_cdr(fields, self, "be")
        if adapt is not None:  # getsize needs none: fixed arrays have static sizes
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
    exec(compile(source, f"<robot_msgs.ros.cdr {name}>", "exec"), namespace)  # noqa: S102 - our own text
    made: Callable[..., Any] = namespace[name]
    return made


def _wire_bounds(desc: Any) -> tuple[int, int] | None:
    """Return the values a base integer field's wire type carries, else ``None``."""
    if int(desc[0]) == _BASE and desc[1][0] in BOUNDS:
        return BOUNDS[desc[1][0]]
    return None


def _factory(cls: type[Msg], fields: list[tuple[str, Any]]) -> Callable[..., Any]:
    """Generate ``make(*values)``: the ``cls`` message of one definition's values, in order.

    A flat fixed array becomes the declared matrix, a numeric sequence held as a tuple a
    tuple, a message sequence a tuple; ``Time``/``Duration`` carry a ``nanosec`` of a
    second or more into ``sec`` (ROS allows it, the message does not: the same instant).

    The first message is built by the class (every check); the next ones are copies of
    it with the fields set by :func:`robot_msgs.msg.base.derive_source`'s lines, the one
    unchecked road (:meth:`robot_msgs.msg.Msg._derived`'s), when the wire
    format proves them valid: the values have the wire's types (a float32 is a float32,
    a string valid UTF-8, an array a read-only view of the message's ``bytes``), and what
    the wire cannot prove is tested here (an ``int`` bounded tighter than its wire type,
    arrays sharing a named size) before the type's cross-field rules run. A value that
    fails a test goes to the class, which names it.

    WHY the lines inlined and not a call of ``_derived``: see
    :func:`~robot_msgs.msg.base.derive_source`.
    """
    specs = field_schema(cls)
    names = [f"v{i}" for i in range(len(fields))]
    values: list[tuple[str, str]] = []
    tests: list[str] = []
    sizes: dict[str, str] = {}
    trusted = True
    for (field, desc), name in zip(fields, names, strict=True):
        spec = specs[field]
        kind = spec.kind
        value = name
        if kind == "array" and spec.shape is not None:
            dims = spec.shape.dims
            if len(dims) > 1 and all(isinstance(d, int) for d in dims):
                value = f"{name}.reshape({tuple(dims)!r})"
            for axis, dim in enumerate(dims):
                if isinstance(dim, str) and dim in sizes:
                    tests.append(f"{value}.shape[{axis}] == {sizes[dim]}")
                elif isinstance(dim, str):
                    sizes[dim] = f"{value}.shape[{axis}]"
        elif kind == "tuple" and _numeric(desc) is not None:
            value = f"tuple({name}.tolist())"
        elif kind == "tuple":
            value = f"tuple({name})"
        elif kind == "int":
            wire = _wire_bounds(desc)
            if spec.bounds is not None and wire is not None and spec.bounds != wire:
                tests.append(f"{spec.bounds[0]} <= {name} <= {spec.bounds[1]}")
        trusted = trusted and not spec.constrained and kind in _WIRE_KINDS
        values.append((field, value))
    carry = ""
    if cls.TYPE in {"std/Time", "std/Duration"}:
        carry = (
            "    if v1 >= 1000000000:\n        v0, v1 = v0 + v1 // 1000000000, v1 % 1000000000\n"
        )
    checked = f"cls({', '.join(f'{f}={v}' for f, v in values)})"
    lines = [f"def make({', '.join(names)}):", *carry.splitlines()]
    if trusted:
        ready = " and ".join(["made", *tests])
        lines += [f"    if {ready}:", *derive_source("made[0]()", values, "        ")]
        if cls._validate is not Msg._validate:  # noqa: SLF001 - the type's own rules
            lines.append("        m._validate()")
        lines.append("        return m")
    lines += [
        f"    m = {checked}",
        "    if not made:",
        "        made.append(m.__copy__)",
        "    return m",
    ]
    namespace = {"cls": cls, "made": [], "_set": force_setattr}
    return _compile("\n".join(lines) + "\n", namespace, "make")


#: Field kinds whose wire values need no test beyond those :func:`_factory` writes.
_WIRE_KINDS = frozenset({"int", "float", "float32", "str", "bool", "msg", "tuple", "array"})


def _adapter(cls: type[Msg], fields: list[tuple[str, Any]]) -> Callable[[Any], Any] | None:
    """Generate ``adapt(message)`` where a field is not what rosbags' serialiser expects.

    It expects each numeric array or sequence as a flat, contiguous NumPy array of the
    ROS element type; the message may hold a matrix (made flat, a view), a tuple (made
    an array) or a strided view (made contiguous). ``None`` when no field needs it.
    """
    specs = field_schema(cls)
    parts = []
    needed = False
    for field, desc in fields:
        dtype = _numeric(desc)
        spec = specs[field]
        if dtype is None:
            parts.append(f"{field}=m.{field}")
            continue
        needed = True
        if spec.kind == "array" and spec.shape is not None and len(spec.shape.dims) > 1:
            parts.append(f"{field}=m.{field}.ravel()")  # a view unless strided
        elif spec.kind == "array":
            parts.append(f"{field}=_contiguous(m.{field})")
        else:
            parts.append(f"{field}=_flat(m.{field}, _np.{dtype})")
    if not needed:
        return None
    source = f"def adapt(m):\n    return _ns({', '.join(parts)})\n"
    names = {"_ns": SimpleNamespace, "_np": np, "_flat": _flat, "_contiguous": _contiguous}
    return _compile(source, names, "adapt")


def _contiguous(value: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return value if value.flags.c_contiguous else np.ascontiguousarray(value)


def _flat(value: Any, dtype: Any) -> np.ndarray[Any, Any]:
    out: np.ndarray[Any, Any] = np.ascontiguousarray(value, dtype=dtype).reshape(-1)
    return out


def _encoder(store: CdrStore, ros_type: str) -> Callable[[Any], memoryview]:
    msgdef = store.get_msgdef(ros_type)
    getsize, write = msgdef.getsize_cdr, msgdef.serialize_cdr_le

    def encode(msg: Any) -> memoryview:
        raw = bytearray(4 + getsize(0, msg, store))
        raw[1] = 1  # CDR_LE encapsulation: 00 01 00 00
        view = memoryview(raw)
        write(view[4:], 0, msg, store)
        return view.toreadonly()  # as rosbags returns it: no second copy of a big message

    return encode


def _decoder(store: CdrStore, ros_type: str) -> Callable[[bytes | bytearray | memoryview], Msg]:
    msgdef = store.get_msgdef(ros_type)
    little, big, make = msgdef.deserialize_cdr_le, msgdef.deserialize_cdr_be, msgdef.cls
    unreadable = (
        struct.error,
        UnicodeDecodeError,
        ValueError,
        IndexError,
        sys.modules["rosbags.serde"].SerdeError,
    )

    def decode(data: bytes | bytearray | memoryview) -> Msg:
        if type(data) is not bytes:  # arrays view the bytes: nothing may write to them
            data = bytes(data)
        if len(data) < 4 or data[0] != 0 or data[1] > 1:
            head = bytes(data[:4])
            msg = f"Expected CDR data of {ros_type} (a 4-byte encapsulation header), got {head!r}"
            raise FormatError(msg)
        try:
            message, pos = (little if data[1] else big)(memoryview(data)[4:], 0, make, store)
        except ValidationError:
            raise
        except unreadable as err:
            msg = f"Expected CDR data of {ros_type}, got bytes it cannot hold: {err}"
            raise FormatError(msg) from err
        if pos + 4 + 3 < len(data):
            msg = f"Expected CDR data of {ros_type}, got {len(data) - pos - 4} bytes too many"
            raise FormatError(msg)
        made: Msg = message
        return made

    return decode
