"""ROS 2 interop through rosbags' type store: messages to and from ROS objects and CDR bytes.

Needs the ``bags`` extra (``pip install 'robot_msgs[bags]'``), pure Python, no ROS
install. :func:`to_ros` builds the ``rosbags`` object of a message's ``ROS2`` type, field by
field as rosbags' Humble definition lists them (field names are the same by design, a
test checks it); :func:`from_ros` goes back from a rosbags object of ROS 2 *or* ROS 1 (as
:class:`rosbags.highlevel.AnyReader` gives them for ``.bag`` files). :func:`to_cdr` and
:func:`from_cdr` are the same through rosbags' own CDR (de)serialiser, so the bytes are
rosbags' bytes.

What differs from ROS, stated once:

- A fixed-size array that is a matrix in ROS's words is a matrix here
  (``float64[36]`` covariance is ``(6, 6)``, ``CameraInfo.k`` is ``(3, 3)``), row-major as
  ROS documents it: :func:`to_ros` flattens it back.
- ``Time``/``Duration`` keep ``nanosec`` in ``[0, 1e9)``; a larger ROS value is carried
  into ``sec`` by :func:`from_ros` (the same instant).
- A ROS 1 ``Header``'s ``seq`` has no field in ROS 2 nor here: :func:`from_ros` drops it
  (the loss is stated here and in :func:`robot_msgs.io.read_records`, which keeps it
  per message); ROS 1's upper-case ``CameraInfo`` fields (``D``, ``K``, ``R``, ``P``) are read.

WHY rosbags' type store and not our own CDR: rosbags is a maintained, tested
implementation of the ROS 2 wire format with the Humble definitions shipped; writing a
second one would be a second source of truth (STYLE.md, "use the library you chose").

Examples
--------
>>> from robot_msgs.geometry import Point
>>> to_cdr(Point(x=1.0)).hex()
'00010000000000000000f03f00000000000000000000000000000000'
>>> from_cdr(to_cdr(Point(x=1.0)), "geometry_msgs/msg/Point")
Point(x=1.0, y=0.0, z=0.0)
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import FormatError, UnknownTypeError, ValidationError
from robot_msgs.msg import field_schema
from robot_msgs.msg.base import declared_types
from robot_msgs.msg.fields import message_class
from robot_msgs.optional import require
from robot_msgs.ros.cdr import CdrStore
from robot_msgs.ros.definitions import (
    decode_generated,
    encode_generated,
    generated_name,
    register_definitions,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.msg import Msg

__all__ = [
    "cdr_store",
    "from_cdr",
    "from_ros",
    "humble_typestore",
    "ros_name",
    "ros_types",
    "to_cdr",
    "to_ros",
]

#: rosbags' Nodetype values (``rosbags.typesys.msg.Nodetype``), fixed by its wire format.
_BASE, _NAME, _ARRAY, _SEQUENCE = 1, 2, 3, 4

_NUMPY = {
    "bool": np.bool_,
    "byte": np.uint8,
    "char": np.uint8,
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "uint16": np.uint16,
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "uint64": np.uint64,
    "float32": np.float32,
    "float64": np.float64,
}

_ROS1_ONLY = {"std_msgs/msg/Header": frozenset({"seq"})}
_INT8_MAX = 127


@functools.cache
def humble_typestore() -> Any:
    """Return rosbags' ROS 2 Humble type store with the package's own types registered.

    The ``compare/*`` result messages are registered under ``robot_msgs/msg/NAME`` from
    the definitions :mod:`robot_msgs.ros.definitions` generates, so they serialise too;
    so is a user's type declared after the store was made, on its first use.

    Raises
    ------
    MissingDependencyError
        ``rosbags`` is not installed.
    """
    typesys = require("rosbags.typesys", "bags", feature="ROS 2 messages")
    store = typesys.get_typestore(typesys.Stores.ROS2_HUMBLE)
    register_definitions(store, _by_ros_name().values())
    return store


@functools.cache
def cdr_store() -> CdrStore:
    """Return the :class:`~robot_msgs.ros.cdr.CdrStore` of the package's messages (made once).

    rosbags' Humble definitions, whose classes are the robot_msgs messages: CDR is read
    into them and written from them by rosbags' generated code, no rosbags object between.
    """
    store = humble_typestore()
    return CdrStore(store.fielddefs, _class_for, store.max_sequence_length)


def ros_name(type_name: str) -> str:
    """Normalise a ROS type name to ``pkg/msg/Name`` (ROS 1's ``pkg/Name`` accepted).

    Examples
    --------
    >>> ros_name("geometry_msgs/Pose"), ros_name("geometry_msgs/msg/Pose")
    ('geometry_msgs/msg/Pose', 'geometry_msgs/msg/Pose')
    """
    parts = type_name.split("/")
    if len(parts) == 2:
        return f"{parts[0]}/msg/{parts[1]}"
    return type_name


@functools.cache
def _by_ros_name() -> dict[str, type[Msg]]:
    """Return the message classes by ROS type name, of the types declared when it was made.

    One class a name: the package's own first, then the first declared; a later type
    whose ROS name is taken (a user's ``ErrorStats``) has none (:func:`_ros_type`).
    """
    from robot_msgs.msg.registry import _import_families  # noqa: PLC0415 - imports all

    _import_families()
    found: dict[str, type[Msg]] = {}
    declared = [cls for name, cls in declared_types().items() if not name.startswith("test/")]
    for cls in sorted(declared, key=lambda cls: not cls.__module__.startswith("robot_msgs.")):
        found.setdefault(generated_name(cls), cls)
    return found


def _declared_since() -> bool:
    """Take in the types declared since :func:`_by_ros_name` was made; say if there were any.

    Their generated definitions join the type store. Run on a name not found, never on
    the way of a type found. WHY: a user's type declared after the first ROS call was
    missing from both: ``to_ros`` raised ``KeyError: 'robot_msgs/msg/Blip'`` and
    ``from_cdr`` said it had no equivalent (a review). Under a lock, the new map is
    registered before it is published: cleared first, another thread could find a new
    type in the map before its definition was in the store, and be refused.
    """
    with _TAKING_IN:
        fresh = _by_ros_name.__wrapped__()
        if fresh == _by_ros_name():
            return False
        register_definitions(humble_typestore(), fresh.values())
        _by_ros_name.cache_clear()
        return True


_TAKING_IN = threading.Lock()


def ros_types() -> dict[str, type[Msg]]:
    """Return the message classes by their ROS type name, sorted.

    The ROS 2 equivalents (``ROS2``) and the generated ``robot_msgs/msg/NAME`` types of
    the package's own messages (:mod:`robot_msgs.ros.definitions`), and of the types
    declared so far.

    Examples
    --------
    >>> types = ros_types()
    >>> types["nav_msgs/msg/Odometry"].TYPE, types["robot_msgs/msg/ErrorStats"].TYPE
    ('nav/Odometry', 'compare/ErrorStats')
    """
    _declared_since()
    return dict(sorted(_by_ros_name().items()))


@functools.cache
def _class_for(type_name: str) -> type[Msg]:
    name = ros_name(type_name)
    cls = _by_ros_name().get(name)
    if cls is None and _declared_since():
        cls = _by_ros_name().get(name)
    if cls is None:
        msg = f"Expected a ROS type with a robot_msgs equivalent, got {type_name!r}"
        raise UnknownTypeError(msg)
    return cls


_ROS_TYPES: dict[type, str] = {}


def _ros_type(cls: type[Msg]) -> str:
    """Return the ROS type ``cls`` is written as, in the type store and ``cls``'s own (once).

    Raises
    ------
    UnknownTypeError
        Another type holds the name (a user's ``ErrorStats`` and the package's
        ``compare/ErrorStats``, both ``robot_msgs/msg/ErrorStats``): read back, it would
        be the other; or ``ROS2`` names a type the Humble store does not define.
    """
    found = _ROS_TYPES.get(cls)
    if found is not None:
        return found
    name = generated_name(cls)
    try:
        owner = _class_for(name)
    except UnknownTypeError:  # a test/ type
        owner = None
    if owner is not cls:
        held = f", which {owner.TYPE} holds" if owner is not None else ""
        msg = f"Expected a message type with a ROS type of its own, got {cls.TYPE}: {name}{held}"
        raise UnknownTypeError(msg)
    if name not in humble_typestore().fielddefs:
        msg = f"Expected a ROS 2 type rosbags' Humble store defines, got {cls.TYPE}'s {name}"
        raise UnknownTypeError(msg)
    _ROS_TYPES[cls] = name
    return name


# --------------------------------------------------------------------------- to ROS


def to_ros(msg: Msg) -> Any:
    """Return the rosbags object of ``msg``'s ROS 2 type, with the same values.

    A type without ROS 2 equivalent (``ROS2`` is ``None``) becomes its generated
    ``robot_msgs/msg/NAME`` type (:mod:`robot_msgs.ros.definitions`).

    Raises
    ------
    ValidationError
        A value the ROS field cannot hold (a sequence longer than a bounded one).

    Examples
    --------
    >>> from robot_msgs.std import Time
    >>> to_ros(Time(sec=3, nanosec=5))
    builtin_interfaces__msg__Time(sec=3, nanosec=5, __msgtype__='builtin_interfaces/msg/Time')
    """
    message_class(msg)  # to_ros(None): "type object 'NoneType' has no attribute 'ROS2'"
    return _to_ros(msg, _ros_type(type(msg)), humble_typestore(), type(msg).__name__)


def _to_ros(msg: Msg, type_name: str, store: Any, path: str) -> Any:
    if type(msg).ROS2 is None:
        return encode_generated(msg, store, to_ros)
    if type_name != type(msg).ROS2:
        text = f"Expected a message of ROS type {type_name}, got {type(msg).TYPE} - at `{path}`"
        raise ValidationError(text)
    kwargs = {
        name: _value_to_ros(getattr(msg, name), node, store, f"{path}.{name}")
        for name, node in store.fielddefs[type_name][1]
    }
    return store.types[type_name](**kwargs)


def _value_to_ros(value: Any, node: tuple[Any, Any], store: Any, path: str) -> Any:
    kind, arg = int(node[0]), node[1]
    if kind == _BASE:
        # rosbags packs ROS's byte (an octet, 0..255 here) as a signed int8
        return value - 256 if arg[0] == "byte" and value > _INT8_MAX else value
    if kind == _NAME:
        return _to_ros(value, arg, store, path)
    sub, length = arg
    sub_kind, sub_arg = int(sub[0]), sub[1]
    out: Any
    if sub_kind == _BASE and sub_arg[0] in _NUMPY:
        out = np.asarray(value, dtype=_NUMPY[sub_arg[0]]).ravel()
        if kind == _ARRAY and out.size != length:
            text = f"Expected {length} values, got {out.size} - at `{path}`"
            raise ValidationError(text)
    elif sub_kind == _BASE:
        out = list(value)
    else:
        out = [_value_to_ros(v, sub, store, f"{path}[{i}]") for i, v in enumerate(value)]
    if kind == _SEQUENCE and length and len(out) > length:
        text = f"Expected at most {length} values, got {len(out)} - at `{path}`"
        raise ValidationError(text)
    return out


# --------------------------------------------------------------------------- from ROS


def from_ros(obj: Any) -> Msg:
    """Return the robot_msgs message of a rosbags object of ROS 2 or ROS 1.

    The type is found from ``obj.__msgtype__`` (see :func:`ros_types`). A ROS 1 header's
    ``seq`` is dropped (no ROS 2 field holds it); any other field the robot_msgs type
    lacks is an error, never silently lost.

    Raises
    ------
    UnknownTypeError
        The ROS type has no robot_msgs equivalent.
    ValidationError
        A value the message refuses, named by its field path.

    Examples
    --------
    >>> from robot_msgs.geometry import Vector3
    >>> from_ros(to_ros(Vector3(z=9.81)))
    Vector3(x=0.0, y=0.0, z=9.81)
    """
    return _from_ros(obj, _class_for(getattr(obj, "__msgtype__", type(obj).__name__)))


def _from_ros(obj: Any, cls: type[Msg]) -> Msg:
    if cls.ROS2 is None:
        return decode_generated(obj, cls, _from_ros)
    plan = _plan(type(obj), cls)
    try:
        kwargs = {name: _value_from_ros(getattr(obj, source)) for name, source in plan}
    except ValidationError:  # a nested message refused: said again at its place
        for name, source in plan:
            _placed_value_from_ros(getattr(obj, source), f"{cls.__name__}.{name}")
        raise
    for name in _octet_fields(cls):
        kwargs[name] = _octets(kwargs[name])
    if cls.TYPE in {"std/Time", "std/Duration"}:
        kwargs = _carried(kwargs)
    return cls(**kwargs)


def _carried(stamp: dict[str, Any]) -> dict[str, Any]:
    """Return a ``Time``/``Duration``'s fields with ``nanosec`` past 1e9 carried into ``sec``.

    Only whole numbers, ``nanosec`` not below 0 (ROS's ``uint32``), are carried; anything
    else goes to the constructor as given, which names the field (``int()`` cut
    ``sec=1.5`` to 1, read ``"5"`` as 5 and let NaN's ``ValueError`` out).
    """
    sec, nanosec = stamp.get("sec", 0), stamp.get("nanosec", 0)
    # type() is: the usual case (Python ints) without isinstance's walk, a tenth of from_ros.
    whole = (type(sec) is int and type(nanosec) is int) or all(
        isinstance(v, int | np.integer) and not isinstance(v, bool) for v in (sec, nanosec)
    )
    if not whole or nanosec < 0:
        return stamp
    carry, rest = divmod(int(nanosec), 1_000_000_000)
    return {**stamp, "sec": int(sec) + carry, "nanosec": rest}


_PLANS: dict[tuple[type, type[Msg]], tuple[tuple[str, str], ...]] = {}


def _plan(ros_class: type, cls: type[Msg]) -> tuple[tuple[str, str], ...]:
    """``(our field, their field)`` pairs for one rosbags class, checked once per class."""
    plan = _PLANS.get((ros_class, cls))
    if plan is None:
        plan = _PLANS[ros_class, cls] = _make_plan(ros_class, cls)
    return plan


_OCTET_FIELDS: dict[type, tuple[str, ...]] = {}


def _octet_fields(cls: type[Msg]) -> tuple[str, ...]:
    """Fields holding ROS ``byte`` values (0..255 here), which rosbags gives signed."""
    found = _OCTET_FIELDS.get(cls)
    if found is None:
        found = _OCTET_FIELDS[cls] = tuple(
            name
            for name, spec in field_schema(cls).items()
            if spec.ros == "byte" or (spec.kind == "array" and spec.dtype == np.uint8)
        )
    return found


def _octets(value: Any) -> Any:
    """Return a ROS ``byte`` rosbags gave signed (``int8``) as the octet it is, ``0..255``."""
    if isinstance(value, np.ndarray) and value.dtype == np.int8:
        return value.view(np.uint8)
    if isinstance(value, int) and value < 0:
        return value + 256
    return value


#: The one field IDL adds to a message without fields; rosbags gives it a default, so it
#: would look like a constant.
_PLACEHOLDER = "structure_needs_at_least_one_member"


def _make_plan(ros_class: type, cls: type[Msg]) -> tuple[tuple[str, str], ...]:
    ours = list(cls.__struct_fields__)
    # rosbags declares a type's constants as fields with defaults; message fields have none.
    theirs = {
        f.name
        for f in dataclasses.fields(ros_class)
        if f.default is dataclasses.MISSING or f.name == _PLACEHOLDER
    }
    lower = {name.lower(): name for name in theirs}
    known = {lower.get(name, name) for name in ours} | _ROS1_ONLY.get(cls.ROS2 or "", set())
    extra = theirs - known
    if extra:
        text = (
            f"Expected the fields of {cls.ROS2} ({', '.join(ours)}), "
            f"got unknown field {min(extra)!r} - at `{cls.__name__}`"
        )
        raise ValidationError(text)
    pairs = [(name, name if name in theirs else lower.get(name)) for name in ours]
    return tuple((name, source) for name, source in pairs if source is not None)


def _value_from_ros(value: Any) -> Any:
    """Return a field's value from ROS: a nested message converted, a list as a tuple."""
    msgtype = getattr(value, "__msgtype__", None)
    if isinstance(msgtype, str):
        return _from_ros(value, _class_for(msgtype))
    if isinstance(value, list):
        return tuple(_value_from_ros(v) for v in value)
    return value


def _placed_value_from_ros(value: Any, place: str) -> Any:
    """Return :func:`_value_from_ros`'s value, a nested message's refusal named at ``place``.

    WHY: the nested message is built first, so its error named its own type
    (``Time.sec``), where from_dict and from_json name the place (``Header.stamp.sec``).
    Run only once a field was refused: formatting every field's place on the way made
    from_ros of a PoseStamped a quarter slower.
    """
    msgtype = getattr(value, "__msgtype__", None)
    if isinstance(msgtype, str):
        cls = _class_for(msgtype)
        try:
            return _from_ros(value, cls)
        except ValidationError as err:
            raise err.placed(cls.__name__, place) from err
    if isinstance(value, list):
        return tuple(_placed_value_from_ros(v, f"{place}[{i}]") for i, v in enumerate(value))
    return value


# --------------------------------------------------------------------------- CDR


def to_cdr(msg: Msg) -> memoryview:
    """Serialise ``msg`` as its ROS 2 type in little-endian CDR, with rosbags' serialiser.

    A type with a ROS 2 equivalent is written by rosbags' generated serialiser straight
    from the message (:mod:`robot_msgs.ros.cdr`); one of the package's own types through its
    rosbags object of the generated definition. Returns a read-only view of the bytes,
    as rosbags' ``serialize_cdr`` does (``bytes(...)`` of it is a ``bytes`` object):
    WHY, a second copy of a 1 MB point cloud would double the cost of writing it.

    Examples
    --------
    >>> from robot_msgs.std import Time
    >>> to_cdr(Time(sec=1, nanosec=2)).hex()
    '000100000100000002000000'
    """
    cls = type(msg)
    encode = _TO_CDR.get(cls)
    if encode is None:
        message_class(msg)  # to_cdr(None) said "type object 'NoneType' has no attribute 'ROS2'"
        name = _ros_type(cls)
        encode = cdr_store().encoder(name) if cls.ROS2 is not None else _generated_encoder(name)
        _TO_CDR[cls] = encode
    return encode(msg)


def _generated_encoder(name: str) -> Callable[[Msg], memoryview]:
    def encode(msg: Msg) -> memoryview:
        view: memoryview = humble_typestore().serialize_cdr(to_ros(msg), name)
        return view

    return encode


def from_cdr(data: bytes | bytearray | memoryview, type_name: str) -> Msg:
    """Deserialise CDR bytes of the ROS 2 type ``type_name`` to its robot_msgs message.

    ``type_name`` is a ROS name (``nav_msgs/msg/Odometry`` or ``nav_msgs/Odometry``) or
    a robot_msgs ``_type`` (``nav/Odometry``, ``compare/ErrorStats``).

    Raises
    ------
    FormatError
        Bytes that are not CDR of that type.
    ValidationError
        A value the message refuses, named by its field.

    Examples
    --------
    >>> from robot_msgs.std import Time
    >>> from_cdr(bytes.fromhex("000100000100000002000000"), "std/Time")
    Time(sec=1, nanosec=2)
    """
    given: object = type_name  # from callers without a type checker, anything
    if not isinstance(given, str):  # 3 said "'int' object has no attribute 'split'"
        from robot_msgs.msg.registry import type_for  # noqa: PLC0415 - the registry imports all

        type_for(given)  # type: ignore[arg-type]  # its refusal of a name that is no str
    return _decoder_for(type_name)(data)


_TO_CDR: dict[type, Callable[[Msg], memoryview]] = {}


@functools.cache
def _decoder_for(type_name: str) -> Callable[[bytes | bytearray | memoryview], Msg]:
    try:
        cls = _class_for(type_name)
    except UnknownTypeError:  # a robot_msgs name, or none: its refusal names them
        from robot_msgs.msg.registry import type_for  # noqa: PLC0415 - the registry imports all

        cls = type_for(type_name)
    name = _ros_type(cls)
    if cls.ROS2 is not None:
        return cdr_store().decoder(name)
    store = humble_typestore()
    serde = require("rosbags.serde", "bags", feature="ROS 2 messages")

    def decode(data: bytes | bytearray | memoryview) -> Msg:
        try:
            obj = store.deserialize_cdr(bytes(data), name)
        except serde.SerdeError as err:
            msg = f"Expected CDR data of {name}, got bytes it cannot hold: {err}"
            raise FormatError(msg) from err
        return from_ros(obj)

    return decode
