"""The message base: frozen, slotted, keyword-constructed, validated value types on msgspec.

A message type is a class decorated with :func:`message`, which makes it a
``msgspec.Struct`` (frozen, keyword-only, tagged ``"_type": "family/Name"``, unknown
fields refused) subclassing :class:`Msg`, and registers it. The field annotations are the
schema: they are checked on construction and again in :meth:`Msg.replace`.

WHY msgspec, measured (``benchmarks/bench_messages.py``, 10^5 messages, ratios to the
reference of the same run, 2-core shared machine): on the previous hand-written dataclass
base a validated ``Pose`` took 3.3x a plain frozen dataclass (10.3 µs), ``from_dict`` 5.1x
a hand-written one and a JSON round trip 4.2x ``json.dumps`` + ``json.loads`` of the same
dicts; on this base they take 0.83x (2.2 µs), 0.66x and 0.28x (``Odometry``: 1.15x,
0.81x of ``to_dict``, 0.54x). msgspec does the struct machinery (``__init__``, slots,
frozen, repr, defaults, the ``"_type"`` tag, ``to_builtins``, JSON with NaN as ``null``,
typed decoding, JSON Schema) in C; attrs, the other candidate, validates in Python as we
do and has no JSON or schema.

What is ours, and why msgspec does not do it:

- Validation on construction: ``msgspec.Struct.__init__`` does not check types (only
  decoding does), so :meth:`Msg.__post_init__` checks each field against its compiled
  :data:`~robot_msgs.msg_fields.FieldSpec`, with a fast path for values already of the
  exact type (:mod:`robot_msgs.msg_fields` holds the checks).
- Arrays: ``Annotated[npt.NDArray[np.float64], Shape("N", 3)]`` fields are copied, cast
  safely, made read-only, and their named dimensions agree across the message; they are
  written as ``{"dtype", "shape", "data"}``.
- NaN-aware equality and hashing (``NaN == NaN``, arrays by value).
- Reading: :meth:`Msg.from_dict` and :func:`decode_json` take msgspec's typed road
  first and fall back to ours, which reads ``null`` in a float field as NaN (the strict
  JSON the package writes), accepts the ROS 2 type name as ``"_type"``, and names the
  field in its errors as STYLE.md asks (``Expected float, got str 'x' - at `Pose.x```).

Supported field annotations: ``int``, ``float``, ``str``, ``bool``; ROS primitives
(:mod:`robot_msgs.primitives`); another message type; ``X | None``; ``tuple[X, ...]``;
``Mapping[str, X]`` (stored as an immutable, hashable :class:`FrozenMap`); the scalar
union :data:`Scalar` and the settings value :data:`Value`; ``Any``; arrays as above.

Examples
--------
>>> from robot_msgs.geometry import Vector3
>>> v = Vector3(x=1.0, y=2, z=0.5)
>>> v
Vector3(x=1.0, y=2.0, z=0.5)
>>> v.to_dict()
{'_type': 'geometry/Vector3', 'x': 1.0, 'y': 2.0, 'z': 0.5}
>>> v.replace(z=3.0) == Vector3(x=1.0, y=2.0, z=3.0)
True
>>> decode_json(encode_json(Vector3(x=float("nan"))), Vector3)
Vector3(x=nan, y=0.0, z=0.0)
"""

from __future__ import annotations

import contextvars
import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import msgspec
import numpy as np
from msgspec.structs import force_setattr

from robot_msgs.errors import ValidationError
from robot_msgs.msg_fields import (
    FieldSpec,
    FrozenMap,
    Scalar,
    Shape,
    Value,
    array_from_json,
    check_value,
    compile_annotation,
    field_error,
    hashable_value,
    values_equal,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> Callable[[T], T]:
        """Mark a decorator as dataclass-like for type checkers (no-op at run time)."""
        return lambda obj: obj


__all__ = [
    "FieldSpec",
    "FrozenMap",
    "Msg",
    "Scalar",
    "Shape",
    "Value",
    "declared_types",
    "decode_json",
    "encode_json",
    "field_schema",
    "field_specs",
    "message",
    "to_dict_keeping_arrays",
]

T = TypeVar("T")
M = TypeVar("M", bound="Msg")

_REGISTRY: dict[str, type[Msg]] = {}
_SPECS: dict[type, dict[str, FieldSpec]] = {}
#: One field's fast check: its name, the exact types kept as they are, int bounds, its spec.
_Step = tuple[str, tuple[type, ...], tuple[int, int] | None, FieldSpec]
#: Per class, the steps of __post_init__.
_PLANS: dict[type, tuple[_Step, ...]] = {}
#: Classes msgspec cannot convert into (an annotation it does not support), or whose data
#: holds nulls (NaN floats): our road first.
_OWN_ROAD: set[type] = set()
#: Set while :meth:`Msg._trusted` builds a message from values proven valid.
_TRUSTED: contextvars.ContextVar[bool] = contextvars.ContextVar("robot_msgs_trusted", default=False)


def _specs(cls: type[Msg]) -> dict[str, FieldSpec]:
    """Compiled field specs of a message class, cached (annotations resolved on first use)."""
    cached = _SPECS.get(cls)
    if cached is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        cached = {name: compile_annotation(hints[name], Msg) for name in cls.__struct_fields__}
        _SPECS[cls] = cached
    return cached


def field_specs(cls: type[Msg]) -> dict[str, str]:
    """Field name to a readable type label, for documentation and error messages."""
    return {name: spec.label for name, spec in _specs(cls).items()}


def field_schema(cls: type[Msg]) -> dict[str, FieldSpec]:
    """Field name to its compiled :data:`FieldSpec`, in declaration order."""
    return dict(_specs(cls))


_EXACT = {"float": (float,), "int": (int,), "str": (str,), "bool": (bool,)}
_SCALARS = (str, float, int, bool, type(None))


def _exact(spec: FieldSpec) -> tuple[type, ...]:
    """Types a value of ``spec`` may have to be kept as it is, without a check."""
    if spec.kind in _EXACT:
        return _EXACT[spec.kind]
    if spec.kind == "msg":
        return (spec.msg_type,)
    if spec.kind == "scalar":
        return _SCALARS
    if spec.kind == "value":
        return _SCALARS
    if spec.kind == "optional" and spec.inner is not None and spec.inner.kind != "array":
        return (type(None), *_exact(spec.inner))
    if spec.kind == "any":
        return (object,)
    return ()


def _plan(cls: type[Msg]) -> tuple[_Step, ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = tuple((name, _exact(spec), spec.bounds, spec) for name, spec in _specs(cls).items())
        _PLANS[cls] = plan
    return plan


# --------------------------------------------------------------------------- encoding hooks


def _encode(value: Any) -> Any:
    """Encode what msgspec does not know (its ``enc_hook``): arrays and frozen mappings.

    An array is ``{"dtype", "shape", "data"}`` with the values flat, row-major.
    """
    if isinstance(value, np.ndarray):
        data = value.ravel().tolist()
        return {"dtype": str(value.dtype), "shape": list(value.shape), "data": data}
    if isinstance(value, FrozenMap):
        return dict(value)
    msg = f"Expected a message field value, got {type(value).__name__}"
    raise NotImplementedError(msg)  # msgspec's hook protocol: "a type I do not handle"


def _decode(kind: Any, value: Any) -> Any:
    """Decode what msgspec does not know (its ``dec_hook``): an array field's dict."""
    if typing.get_origin(kind) is np.ndarray or kind is np.ndarray:
        return array_from_json(value, "$")
    msg = f"Expected an array dict, got {type(value).__name__}"
    raise NotImplementedError(msg)  # msgspec's hook protocol: "a type I do not handle"


# --------------------------------------------------------------------------- our reading road


#: Leaf kinds whose JSON form is the value itself.
_AS_IS = frozenset({"str", "int", "bool", "scalar", "any"})


def _as_is(spec: FieldSpec, items: Iterable[Any]) -> bool:
    """Whether :func:`_from_json_value` returns every one of ``items`` unchanged.

    WHY: a sequence or mapping of such items is then taken whole, not walked item by
    item (a stored run report's settings: a quarter of its loading time, measured).
    """
    kind = spec.kind
    if kind in _AS_IS:
        return True
    if kind == "value":
        return not any(type(item) is list for item in items)
    if kind in {"float", "float32"}:
        return not any(item is None for item in items)
    return False


def _from_json_value(spec: FieldSpec, value: Any, path: str) -> Any:
    """Undo the JSON form of one field; validation proper happens in the constructor."""
    kind = spec.kind
    if kind == "optional":
        assert spec.inner is not None
        return None if value is None else _from_json_value(spec.inner, value, path)
    if kind == "msg":
        if not isinstance(value, Mapping):
            expected = f"{spec.msg_type.__name__} as a dict"
            raise field_error(expected=expected, value=value, path=path)
        return _build(spec.msg_type, value, path)
    if kind == "tuple":
        assert spec.inner is not None
        if not isinstance(value, list | tuple):
            raise field_error(expected=f"{spec.label} as a list", value=value, path=path)
        if _as_is(spec.inner, value):
            return tuple(value)
        return tuple(_from_json_value(spec.inner, v, f"{path}[{i}]") for i, v in enumerate(value))
    if kind == "mapping":
        assert spec.inner is not None
        if not isinstance(value, Mapping):
            raise field_error(expected=f"{spec.label} as a dict", value=value, path=path)
        if _as_is(spec.inner, value.values()):
            return value
        return {k: _from_json_value(spec.inner, v, f"{path}[{k!r}]") for k, v in value.items()}
    if kind == "array":
        return array_from_json(value, path)
    if kind in {"float", "float32"} and value is None:
        return math.nan  # strict JSON writers turn NaN into null
    if kind == "value" and isinstance(value, list):
        return tuple(value)
    return value


def _defaults(cls: type[Any]) -> dict[str, Any]:
    """Return a struct's defaults by field (msgspec keeps those of the last fields)."""
    fields, defaults = cls.__struct_fields__, cls.__struct_defaults__
    return dict(zip(fields[len(fields) - len(defaults) :], defaults, strict=True))


def _is_ros_name(cls: type[Msg], name: object) -> bool:
    """Whether ``name`` is ``cls``'s ROS 2 type, as ``pkg/msg/Name`` or ROS 1's ``pkg/Name``."""
    ros2 = cls.ROS2
    return ros2 is not None and name in (ros2, ros2.replace("/msg/", "/"))


def _build(cls: type[M], data: Mapping[str, Any], path: str) -> M:
    data = cls._upgrade(data)
    type_name = data.get("_type", cls.TYPE)
    if type_name != cls.TYPE and not _is_ros_name(cls, type_name):
        msg = f"Expected _type {cls.TYPE!r}, got {type_name!r} - at `{path}._type`"
        raise ValidationError(msg)
    specs = _specs(cls)
    unknown = sorted(set(data) - set(specs) - {"_type"})
    if unknown:
        msg = f"Expected fields of {cls.__name__}, got unknown field {unknown[0]!r} - at `{path}`"
        raise ValidationError(msg)
    kwargs = {
        name: _from_json_value(spec, data[name], f"{path}.{name}")
        for name, spec in specs.items()
        if name in data
    }
    defaults = _defaults(cls)
    missing = [n for n in cls.__struct_fields__ if n not in kwargs and n not in defaults]
    if missing:
        msg = f"Expected required field {missing[0]!r}, got nothing - at `{path}.{missing[0]}`"
        raise ValidationError(msg)
    try:
        return cls(**kwargs)
    except ValidationError as err:
        text = str(err).replace(f"at `{cls.__name__}.", f"at `{path}.")
        raise ValidationError(text, field=err.field, reason=err.reason) from err


# --------------------------------------------------------------------------- the base class


#: The struct options of every message (also given to the class made with its tag).
_CONFIG: dict[str, Any] = {
    "frozen": True,
    "kw_only": True,
    "eq": False,
    "tag_field": "_type",
    "forbid_unknown_fields": True,
}

if TYPE_CHECKING:

    class _Struct:
        """What type checkers see: :func:`message`'s ``dataclass_transform`` makes the fields."""

        __struct_fields__: ClassVar[tuple[str, ...]]
        __struct_defaults__: ClassVar[tuple[Any, ...]]

else:

    class _MessageMeta(type(msgspec.Struct)):
        """Give every class body the message options, so it is keyword-only and frozen."""

        def __new__(mcls, name, bases, namespace, **options):  # noqa: ANN001, ANN003, ANN204
            return super().__new__(mcls, name, bases, namespace, **{**_CONFIG, **options})

    class _Struct(msgspec.Struct, metaclass=_MessageMeta):
        pass


class Msg(_Struct):
    """Base of every message type: immutable, validated, serialisable, comparable by value.

    Subclasses are made with the :func:`message` decorator. ``TYPE`` is the
    ``"family/Name"`` string written as ``"_type"``; ``ROS2`` the ROS 2 equivalent
    (``"geometry_msgs/msg/Pose"``) or ``None``.
    """

    TYPE: ClassVar[str] = ""
    ROS2: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        if _TRUSTED.get():
            return
        cls = type(self)
        dims: dict[str, tuple[int, str]] | None = None
        for name, exact, bounds, spec in _PLANS.get(cls) or _plan(cls):
            value = getattr(self, name)
            if type(value) in exact and (bounds is None or bounds[0] <= value <= bounds[1]):
                continue
            if dims is None:
                dims = {}
            checked = check_value(spec, value, f"{cls.__name__}.{name}", dims)
            if checked is not value:
                force_setattr(self, name, checked)  # type: ignore[arg-type]  # a Struct at run time
        self._validate()

    def _validate(self) -> None:
        """Cross-field checks of a subclass; raise :class:`ValidationError` on failure."""

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Return the current form of data a type wrote in an older form (default: as is).

        Our reading road calls it before the fields are read (msgspec's refuses the
        older form first), so a subclass that changed its form states its migration here.
        """
        return data

    def _normalise(self, field: str, value: Any) -> None:
        """Store ``value`` as ``field`` during :meth:`_validate` (a spelling made canonical)."""
        force_setattr(self, field, value)  # type: ignore[arg-type]  # a Struct at run time

    def _fail(self, field: str, expected: str, got: object) -> ValidationError:
        """Build a :class:`ValidationError` for ``field`` of this message."""
        return field_error(expected=expected, value=got, path=f"{type(self).__name__}.{field}")

    @classmethod
    def _trusted(cls: type[M], **fields: Any) -> M:  # noqa: PYI019
        """Build from values the caller has proven valid and made read-only: no check.

        For the library's own derivations that keep every invariant by construction.
        """
        token = _TRUSTED.set(True)
        try:
            return cls(**fields)
        finally:
            _TRUSTED.reset(token)

    @classmethod
    def from_dict(cls: type[M], data: Mapping[str, Any]) -> M:  # noqa: PYI019
        """Build a message from its :meth:`to_dict` form (the exact inverse).

        Fields missing from ``data`` take their defaults, so data written before a
        defaulted field existed still loads; ``null`` in a float field is NaN; the ROS 2
        type name is accepted as ``"_type"``. A wrong ``"_type"``, an unknown field or a
        missing required one raise :class:`~robot_msgs.errors.ValidationError`.
        """
        if not isinstance(data, Mapping):
            raise field_error(expected=f"{cls.__name__} as a dict", value=data, path=cls.__name__)
        if cls not in _OWN_ROAD:
            try:
                return msgspec.convert(data, cls, dec_hook=_decode)
            except msgspec.ValidationError as err:
                # our road: NaN as null, ROS names, and errors that name the field. A type
                # whose data holds nulls (NaN floats of reports) takes it at once from now
                # on: msgspec would build most of it before the null stops it (measured:
                # a stored run record 0.26 ms through both roads, 0.21 ms through ours).
                if "got `null`" in str(err):
                    _OWN_ROAD.add(cls)
            except TypeError:
                _OWN_ROAD.add(cls)
        return _build(cls, data, cls.__name__)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict with a "_type" key; arrays keep their dtype and shape."""
        out: dict[str, Any] = msgspec.to_builtins(self, enc_hook=_encode)
        return out

    def as_dict(self) -> dict[str, Any]:
        """Plain field values by name, one level deep (nested messages stay messages)."""
        return {name: getattr(self, name) for name in self.__struct_fields__}

    def replace(self: M, **changes: Any) -> M:  # noqa: PYI019
        """A copy with some fields changed. Validation runs again."""  # noqa: D401 - the seed page's text
        names = self.__struct_fields__
        unknown = sorted(set(changes) - set(names))
        if unknown:
            path = f"{type(self).__name__}.{unknown[0]}"
            msg = f"Expected a field of {type(self).__name__}, got {unknown[0]!r} - at `{path}`"
            raise ValidationError(msg)
        return type(self)(**{name: changes.get(name, getattr(self, name)) for name in names})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            values_equal(getattr(self, name), getattr(other, name))
            for name in self.__struct_fields__
        )

    def __hash__(self) -> int:
        values = tuple(hashable_value(getattr(self, name)) for name in self.__struct_fields__)
        return hash((self.TYPE, values))

    def __reduce__(self) -> tuple[Callable[..., Msg], tuple[type[Msg], dict[str, Any]]]:
        return (_rebuild, (type(self), self.as_dict()))


def to_dict_keeping_arrays(message: Msg) -> dict[str, Any]:
    """Return ``message.to_dict()`` with every array left a NumPy array, not a list dict.

    The form binary containers (``.npz``, Parquet) hold: no list per array on the way
    out, none on the way back, since :meth:`Msg.from_dict` takes arrays in place of
    array dicts.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> traj = PoseTrajectory(stamps_s=[0.0], positions_xyz=[[1.0, 2.0, 3.0]],
    ...                       orientations_quat_xyzw=[[0.0, 0.0, 0.0, 1.0]])
    >>> tree = to_dict_keeping_arrays(traj)
    >>> type(tree["positions_xyz"]).__name__, PoseTrajectory.from_dict(tree) == traj
    ('ndarray', True)
    """
    out: dict[str, Any] = {"_type": message.TYPE}
    for name in message.__struct_fields__:
        out[name] = _keeping_arrays(getattr(message, name))
    return out


def _keeping_arrays(value: Any) -> Any:
    if isinstance(value, Msg):
        return to_dict_keeping_arrays(value)
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, tuple):
        return [_keeping_arrays(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _keeping_arrays(v) for k, v in value.items()}
    return value


def encode_json(msg: Msg) -> bytes:
    """Return ``msg`` as compact strict JSON (UTF-8): NaN and infinities as ``null``.

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> encode_json(Point(x=float("inf")))
    b'{"_type":"geometry/Point","x":null,"y":0.0,"z":0.0}'
    """
    return msgspec.json.encode(msg, enc_hook=_encode)


def decode_json(data: bytes | str, cls: type[M]) -> M:
    """Build a ``cls`` message from JSON text, such as :func:`encode_json` writes.

    msgspec's typed decoder first; on any refusal, :meth:`Msg.from_dict` of the parsed
    JSON (``null`` floats as NaN, ROS names, errors that name the field).

    Raises
    ------
    ValidationError
        Not JSON, or JSON that :meth:`Msg.from_dict` refuses.

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> decode_json(b'{"_type": "geometry/Point", "x": null}', Point)
    Point(x=nan, y=0.0, z=0.0)
    """
    if cls not in _OWN_ROAD:
        try:
            return msgspec.json.decode(data, type=cls, dec_hook=_decode)
        except msgspec.ValidationError:
            pass
        except TypeError:
            _OWN_ROAD.add(cls)
    try:
        value = msgspec.json.decode(data)
    except msgspec.DecodeError as err:
        msg = f"Expected JSON text for {cls.__name__}, got {str(data)[:40]!r}: {err}"
        raise ValidationError(msg) from err
    return cls.from_dict(value)


def _rebuild(cls: type[M], fields: dict[str, Any]) -> M:
    """Unpickle through the constructor, so arrays come back read-only and validated."""
    return cls(**fields)


_STRUCT_INTERNALS = frozenset(
    {"__struct_fields__", "__struct_defaults__", "__slots__", "__match_args__", "__struct_config__"}
)


def _as_struct_default(default: Any) -> Any:
    """Return a field default as msgspec takes it (``dataclasses.field`` translated).

    A message default is given through a factory (it is immutable: the same instance
    each time), so a JSON Schema does not try to encode one that holds arrays.
    """
    if isinstance(default, dataclasses.Field):
        if default.default_factory is not dataclasses.MISSING:
            return msgspec.field(default_factory=default.default_factory)
        default = default.default
    if isinstance(default, Msg):
        return msgspec.field(default_factory=lambda: default)
    return default


def _dataclass_fields(cls: type[Msg]) -> dict[str, dataclasses.Field[Any]]:
    """``__dataclass_fields__`` for :func:`dataclasses.fields` and ``replace`` (compatibility).

    WHY: code written when messages were dataclasses reads their fields so; this keeps
    it working on msgspec structs. Uses ``dataclasses``' field-kind marker, unchanged
    from Python 3.10 to 3.14.
    """
    fields: dict[str, dataclasses.Field[Any]] = {}
    defaults = _defaults(cls)
    for name in cls.__struct_fields__:
        default = defaults.get(name, dataclasses.MISSING)
        factory = getattr(default, "factory", None)
        if factory is not None:
            made: dataclasses.Field[Any] = dataclasses.field(default_factory=factory)
        else:
            made = dataclasses.field(default=default)
        made.name = name
        made.type = cls.__annotations__.get(name, Any)
        made._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # noqa: SLF001
        fields[name] = made
    return fields


@dataclass_transform(kw_only_default=True, frozen_default=True)
def message(type_name: str, *, ros2: str | None = None) -> Callable[[type[M]], type[M]]:
    """Make a class a registered message type.

    Parameters
    ----------
    type_name : str
        ``"family/Name"``, written as ``"_type"`` and looked up by :func:`from_dict`.
    ros2 : str or None
        The ROS 2 equivalent, such as ``"geometry_msgs/msg/Pose"``, or ``None``.

    Raises
    ------
    ValueError
        ``type_name`` is not ``"family/Name"``, or is registered already.

    Examples
    --------
    >>> @message("test/Gain")
    ... class Gain(Msg):  # a demonstration type
    ...     kp: float
    ...     label: str = ""
    >>> Gain(kp=2)
    Gain(kp=2.0, label='')
    >>> Gain(kp="high")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected float, got str 'high' - at `Gain.kp`
    >>> declared_types()["test/Gain"] is Gain, Gain.TYPE, Gain.ROS2
    (True, 'test/Gain', None)
    >>> del _REGISTRY["test/Gain"]  # keep the registry equal to the catalog
    """
    family, _, name = type_name.partition("/")
    if not family or not name:
        msg = f"Expected a 'family/Name' type name, got {type_name!r}"
        raise ValueError(msg)

    def wrap(cls: type[M]) -> type[M]:
        if type_name in _REGISTRY:
            msg = f"Message type {type_name!r} is registered twice"
            raise ValueError(msg)
        # The class body was made a struct already; it is made again with its tag
        # (msgspec takes the tag when the class is created), fields and methods as written.
        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - strings, unresolved
        defaults = _defaults(cls)
        body = {
            k: v
            for k, v in cls.__dict__.items()
            if k not in _STRUCT_INTERNALS and k not in cls.__struct_fields__
        }
        body["__qualname__"] = cls.__qualname__
        body["__annotations__"] = dict(own)
        body.update({f: _as_struct_default(d) for f, d in defaults.items()})
        made = typing.cast(
            "type[M]",
            types.new_class(
                cls.__name__, (Msg,), {"tag": type_name}, lambda namespace: namespace.update(body)
            ),
        )
        made.TYPE = type_name
        made.ROS2 = ros2
        made.__dataclass_fields__ = _dataclass_fields(made)  # type: ignore[attr-defined]
        _REGISTRY[type_name] = made
        return made

    return wrap


def declared_types() -> Mapping[str, type[Msg]]:
    """Return a read-only view of the message types defined so far, by ``"_type"``.

    Only the modules imported so far have defined theirs: :mod:`robot_msgs.registry`
    imports every message family first and is what callers want.
    """
    return types.MappingProxyType(_REGISTRY)
