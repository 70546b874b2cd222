"""The message base: frozen, slotted, keyword-constructed, validated value types on msgspec.

A message type is a class decorated with :func:`message`, which makes it a
``msgspec.Struct`` (frozen, keyword-only, tagged ``"_type": "family/Name"``, unknown
fields refused) subclassing :class:`Msg`, and registers it. The field annotations are the
schema, and constraints are declared on them: ``Literal[...]`` choices, bounds as
``Annotated[float, msgspec.Meta(gt=0)]``, ROS primitives (:mod:`robot_msgs.msg.primitives`).

WHY msgspec, measured (``benchmarks/bench_messages.py``, ratios to the reference of the
same run, 2-core shared machine): on the previous hand-written dataclass base a validated
``Pose`` took 3.3x a plain frozen dataclass, ``from_dict`` 5.1x a hand-written one and a
JSON round trip 4.2x ``json.dumps`` + ``json.loads`` of the same dicts; on msgspec they
take under 1x. msgspec does the struct machinery (``__init__``, slots, frozen, repr,
defaults, the ``"_type"`` tag, ``to_builtins``, JSON, typed decoding, JSON Schema) in C;
attrs, the other candidate, validates in Python and has no JSON or schema.

One road, msgspec's: reading (:meth:`Msg.from_dict`, :func:`decode_json`) is
``msgspec.convert``/``msgspec.json.decode`` into the type, which checks every declared
constraint; construction checks each field against the same annotation with
``msgspec.convert`` (:mod:`robot_msgs.msg.fields`), after a fast test that keeps values
already of the exact type and inside their bounds as they are. Ours, because msgspec does
not know them: arrays, ``float32`` rounding, cross-field rules (:meth:`Msg._validate`),
and the JSON form's non-finite floats.

Strict JSON, one convention: NaN is ``null`` (as msgspec writes it), ``+inf``/``-inf``
are the strings ``"Infinity"``/``"-Infinity"`` of the proto3 JSON mapping; where ``null``
means ``None`` (an optional float, a settings value) NaN is ``"NaN"``. Reading takes all
of these and ``null`` as NaN in a float field (files written before infinities were kept
load as before). A document msgspec refuses as it stands is read again after these
spellings are turned into floats and a ROS 2 ``"_type"`` into the package's; if it is
still refused, each field is checked alone to name the one at fault
(``Expected float, got str 'x' - at `Pose.x```).

Supported field annotations: ``int`` (ROS's ``int64``), ``float``, ``str``, ``bool``;
``Literal[...]``; any of these ``Annotated`` with ``msgspec.Meta`` constraints; ROS
primitives; another message type; ``X | None``; ``tuple[X, ...]``; ``Mapping[str, X]``
(stored as an immutable, hashable :class:`FrozenMap`); the scalar union :data:`Scalar` and
the settings value :data:`Value`; ``Any``; arrays ``Annotated[npt.NDArray[np.float64],
Shape("N", 3)]`` (copied, cast where no value changes, read-only, named dimensions
agreeing across the message, written as ``{"dtype", "shape", "data"}``).

Equality is by value (NaN equals NaN, ``0.0 == -0.0``, arrays by dtype, shape and values),
``!=`` is its negation and equal messages hash equal.

Examples
--------
>>> from robot_msgs.geometry import Vector3
>>> v = Vector3(x=1.0, y=2, z=0.5)
>>> v
Vector3(x=1.0, y=2.0, z=0.5)
>>> v.to_dict()
{'_type': 'geometry/Vector3', 'x': 1.0, 'y': 2.0, 'z': 0.5}
>>> v.replace(z=3.0) == Vector3(x=1.0, y=2.0, z=3.0), v != Vector3(x=1.0, y=2.0, z=0.5)
(True, False)
>>> from robot_msgs.msg import decode_json, encode_json
>>> encode_json(Vector3(x=float("nan"), y=float("inf")))
b'{"_type":"geometry/Vector3","x":null,"y":"Infinity","z":0.0}'
>>> decode_json(_, Vector3)
Vector3(x=nan, y=inf, z=0.0)
"""

from __future__ import annotations

import dataclasses
import functools
import math
import types
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import msgspec
import numpy as np
from msgspec.structs import force_setattr

from robot_msgs.errors import ValidationError, did_you_mean
from robot_msgs.msg.arrays import field_error
from robot_msgs.msg.check import compile_check, deferred_check
from robot_msgs.msg.fields import FieldSpec, hashable_value, specs_of, values_equal
from robot_msgs.msg.json import from_tree, struct_defaults, to_builtins
from robot_msgs.msg.repr import has_large_array, short_repr

if TYPE_CHECKING:
    import inspect
    from collections.abc import Callable, Sequence

    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> Callable[[T], T]:
        """Mark a decorator as dataclass-like for type checkers (no-op at run time)."""
        return lambda obj: obj


__all__ = [
    "Msg",
    "declared_types",
    "derive_source",
    "deriver",
    "field_schema",
    "field_specs",
    "message",
    "to_dict_keeping_arrays",
]

T = TypeVar("T")
M = TypeVar("M", bound="Msg")

_REGISTRY: dict[str, type[Msg]] = {}
#: The generated construction check of each class (:mod:`robot_msgs.msg.check`).
_CHECKS: dict[type, Callable[[Any], None]] = {}


def field_specs(cls: type[Msg]) -> dict[str, str]:
    """Field name to a readable type label, for documentation and error messages."""
    return {name: spec.label for name, spec in specs_of(cls).items()}


def field_schema(cls: type[Msg]) -> dict[str, FieldSpec]:
    """Field name to its compiled :data:`FieldSpec`, in declaration order."""
    return dict(specs_of(cls))


# --------------------------------------------------------------------------- the base class


#: The struct options of every message (also given to the class made with its tag).
_CONFIG: dict[str, Any] = {
    "frozen": True,
    "kw_only": True,
    "eq": False,
    "tag_field": "_type",
    "forbid_unknown_fields": True,
}

#: msgspec's signature of a struct class, a descriptor on its metaclass.
_STRUCT_SIGNATURE = type(msgspec.Struct).__signature__


@functools.cache
def _plain_signature(cls: type) -> inspect.Signature:
    """Return msgspec's signature of ``cls`` with each field's ``Annotated`` metadata removed.

    WHY: ``help(EvaluationSettings)``, and ``EvaluationSettings?`` in a notebook, showed an
    8,608-character signature: every field's ``msgspec.Meta`` description and the
    ``Flag`` of its command-line option inside ``Annotated[...]``. Without them it is 907
    characters of types and defaults (``align: Literal['none', 'se3', ...] = 'none'``);
    the descriptions stay in the JSON Schema and the reference pages.
    """
    signature: inspect.Signature = _STRUCT_SIGNATURE.__get__(cls)
    return signature.replace(
        parameters=[
            p.replace(annotation=_without_metadata(p.annotation))
            for p in signature.parameters.values()
        ]
    )


def _without_metadata(annotation: Any) -> Any:
    """Return ``annotation`` with each ``Annotated[X, ...]`` in it written ``X``.

    Examples
    --------
    >>> _without_metadata(typing.Annotated[float, msgspec.Meta(gt=0)] | None)
    typing.Optional[float]
    >>> _without_metadata(tuple[typing.Annotated[float, msgspec.Meta(ge=0)], ...])
    tuple[float, ...]
    """
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _without_metadata(typing.get_args(annotation)[0])
    args = typing.get_args(annotation)
    plain = tuple(_without_metadata(a) for a in args)
    if all(p is a for p, a in zip(plain, args, strict=True)):
        return annotation  # Literal values, plain types: as they are
    if origin in (typing.Union, types.UnionType):
        return typing.Union[plain]  # noqa: UP007 - built from a tuple
    if isinstance(annotation, types.GenericAlias):  # tuple[...], Mapping[...]
        return types.GenericAlias(origin, plain)
    return annotation.copy_with(plain)  # typing's own aliases


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

        @property
        def __signature__(cls):  # noqa: ANN204 - untyped, as the metaclass above
            return _plain_signature(cls)

    class _Struct(msgspec.Struct, metaclass=_MessageMeta):
        pass


class _DataclassFields:
    """``__dataclass_fields__`` of a message class, made on first use (compatibility).

    WHY: code written when messages were dataclasses reads their fields with
    :func:`dataclasses.fields`; this keeps it working on msgspec structs. The fields are
    those of a real dataclass of the same names and defaults, made with the public
    :func:`dataclasses.make_dataclass`.
    """

    _made: ClassVar[dict[type, dict[str, dataclasses.Field[Any]]]] = {}

    def __get__(self, obj: object, owner: type[Msg]) -> dict[str, dataclasses.Field[Any]]:
        made = self._made.get(owner)
        if made is None:
            defaults = struct_defaults(owner)
            spec: list[tuple[str, Any, dataclasses.Field[Any]]] = []
            for name in owner.__struct_fields__:
                default = defaults.get(name, dataclasses.MISSING)
                factory = getattr(default, "factory", None)
                if factory is not None:
                    field: dataclasses.Field[Any] = dataclasses.field(default_factory=factory)
                else:
                    field = dataclasses.field(default=default)
                spec.append((name, owner.__annotations__.get(name, Any), field))
            twin = dataclasses.make_dataclass(owner.__name__, spec, kw_only=True, frozen=True)
            made = self._made[owner] = dict(twin.__dataclass_fields__)  # type: ignore[attr-defined]
        return made


#: The functions :func:`deriver` made, by type and field names.
_DERIVERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


def derive_source(copy: str, fields: Sequence[tuple[str, str]], indent: str) -> list[str]:
    """Lines of Python that make ``m``, the message ``copy`` gives, with ``fields`` set, unchecked.

    The one road of unchecked construction, written once: :func:`deriver` (behind
    :meth:`Msg._derived`) and the CDR reader's generated functions
    (:mod:`robot_msgs.ros.cdr`) run these lines, with ``_set`` bound to msgspec's
    ``force_setattr``. ``copy`` is an expression copying a message known to be valid
    (msgspec copies a struct without ``__post_init__``), each field's value an expression
    the caller has proven valid for it.

    WHY source lines and not one function for every caller: the CDR reader inlines them
    in its own function per type, so a message costs no call beyond the copy and the sets
    (a call of ``_derived`` with keywords took ``from_cdr`` to 1.55-1.65x rosbags'
    deserialise for Pose, Odometry and Imu, where issue 20 asks for 1.3x at most:
    ``benchmarks/bench_messages.py --only cdr``).

    Examples
    --------
    >>> derive_source("proto.__copy__()", [("y", "2.0")], "    ")
    ['    m = proto.__copy__()', "    _set(m, 'y', 2.0)"]
    """
    return [
        f"{indent}m = {copy}",
        *(f"{indent}_set(m, {name!r}, {value})" for name, value in fields),
    ]


def deriver(cls: type[M], names: tuple[str, ...]) -> Callable[..., M]:
    """Return ``derive(prototype, *values)``: a copy of ``prototype`` with ``names`` set, unchecked.

    ``prototype`` is a valid ``cls`` message; the ``values`` of the fields ``names``, in
    order, are the caller's to prove valid (:func:`derive_source`).

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> deriver(Point, ("y",))(Point(x=1.0), 2.0)
    Point(x=1.0, y=2.0, z=0.0)
    """
    key = (cls, names)
    found = _DERIVERS.get(key)
    if found is None:  # field names are identifiers: written into the text as they are
        values = [f"v{k}" for k in range(len(names))]
        lines = [
            f"def derive({', '.join(['prototype', *values])}):",
            *derive_source("prototype.__copy__()", list(zip(names, values, strict=True)), "    "),
            "    return m\n",
        ]
        namespace: dict[str, Any] = {"_set": force_setattr}
        source = "\n".join(lines)
        exec(compile(source, f"<robot_msgs derive {cls.__name__}>", "exec"), namespace)  # noqa: S102 - our own text
        found = _DERIVERS[key] = namespace["derive"]
    return found


class Msg(_Struct):
    """Base of every message type: immutable, validated, serialisable, comparable by value.

    Subclasses are made with the :func:`message` decorator. ``TYPE`` is the
    ``"family/Name"`` string written as ``"_type"``; ``ROS2`` the ROS 2 equivalent
    (``"geometry_msgs/msg/Pose"``) or ``None``.
    """

    TYPE: ClassVar[str] = ""
    ROS2: ClassVar[str | None] = None
    __dataclass_fields__: ClassVar[Any] = _DataclassFields()

    def __post_init__(self) -> None:
        cls = type(self)
        check = _CHECKS.get(cls)
        if check is None:
            own_rules = cls._validate is not Msg._validate
            check = _CHECKS[cls] = compile_check(cls, specs_of(cls), validate=own_rules)
        check(self)

    def _validate(self) -> None:
        """Cross-field checks of a subclass; raise :class:`ValidationError` on failure."""

    @classmethod
    def _upgrade(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """Return the current form of data a type wrote in an older form (default: as is).

        Read when msgspec refuses a document as it stands (:func:`robot_msgs.msg.json.revived`), so
        a type that changed its form states its migration here.
        """
        return data

    def _normalise(self, field: str, value: Any) -> None:
        """Store ``value`` as ``field`` during :meth:`_validate` (a spelling made canonical)."""
        force_setattr(self, field, value)  # type: ignore[arg-type]  # a Struct at run time

    def _fail(self, field: str, expected: str, got: object) -> ValidationError:
        """Build a :class:`ValidationError` for ``field`` of this message."""
        return field_error(expected=expected, value=got, path=f"{type(self).__name__}.{field}")

    def _check_measures(self, names: tuple[str, ...], expected: str) -> None:
        """Refuse a field of ``names`` below 0 or +inf, naming it; NaN (unknown) passes.

        The one test of a measured quantity (a duration, an RMS, a rate, bytes): ``-1``
        and ``+inf`` (none measured) are refused as ``expected`` says. Written inline in
        six types before; a type that checks often tests ``0.0 <= v < 1e308`` first.
        """
        for name in names:
            value = getattr(self, name)
            if not (0 <= value < math.inf or math.isnan(value)):
                raise self._fail(field=name, expected=expected, got=value)

    def _check_empty_or_one_each(self, names: tuple[str, ...], count: int, each: str) -> None:
        """Refuse a field of ``names`` neither empty nor ``count`` long: "0 or {count} {each}".

        The one test of ROS's optional parallel lists (a joint state's ``velocity``, a
        scan's ``intensities``, a marker's ``colors``): each holds nothing, or one entry
        per entry of another field. Written inline in five types before.
        """
        for name in names:
            values = getattr(self, name)
            if len(values) not in (0, count):
                raise self._fail(field=name, expected=f"0 or {count} {each}", got=values)

    def _fail_rule(self, first: str, second: str, rule: str) -> ValidationError:
        """Build a :class:`ValidationError` for ``rule`` between two fields, naming both.

        Either field may be the one a caller got wrong (``replace(std=...)`` or
        ``replace(rms=...)`` break ``std <= rms`` alike), so the refusal gives both values
        and both places: "Expected std <= rms, got std 0.55 and rms 0.5 - at `ErrorStats.std`
        and `ErrorStats.rms`". Its ``field`` is ``""``: the error is not about one field.
        """
        name = type(self).__name__
        values = f"{first} {getattr(self, first)!r} and {second} {getattr(self, second)!r}"
        reason = f"expected {rule}, got {values}"
        msg = f"Expected {rule}, got {values} - at `{name}.{first}` and `{name}.{second}`"
        return ValidationError(msg, reason=reason)

    def _derived(self: M, **fields: Any) -> M:  # noqa: PYI019
        """Return a copy with ``fields`` replaced, unchecked: the one unchecked constructor.

        For the library's own derivations that keep every invariant by construction (the
        values proven valid and made read-only by the caller), where checking again
        costs as much as the derivation. Every public construction validates. The copy
        is made by :func:`deriver`'s function for these fields.
        """
        return deriver(type(self), tuple(fields))(self, *fields.values())

    @classmethod
    def from_dict(cls: type[M], data: Mapping[str, Any]) -> M:  # noqa: PYI019
        """Build a message from its :meth:`to_dict` form (the exact inverse).

        Fields missing from ``data`` take their defaults, so data written before a
        defaulted field existed still loads; ``null``, ``"NaN"``, ``"Infinity"`` and
        ``"-Infinity"`` in a float field are the non-finite floats; the ROS 2 type name is
        accepted as ``"_type"``. A wrong ``"_type"``, an unknown field or a missing
        required one raise :class:`~robot_msgs.errors.ValidationError`.
        """
        return from_tree(cls, data)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict with a "_type" key; arrays keep their dtype and shape."""
        return to_builtins(self)

    def as_dict(self) -> dict[str, Any]:
        """Plain field values by name, one level deep (nested messages stay messages)."""
        return {name: getattr(self, name) for name in self.__struct_fields__}

    def replace(self: M, **changes: Any) -> M:  # noqa: PYI019
        """A copy with some fields changed. Validation runs again."""  # noqa: D401 - the seed page's text
        names = self.__struct_fields__
        unknown = sorted(set(changes) - set(names))
        if unknown:
            path = f"{type(self).__name__}.{unknown[0]}"
            near = did_you_mean(unknown[0], list(names))
            msg = (
                f"Expected a field of {type(self).__name__}, got {unknown[0]!r}{near} - at `{path}`"
            )
            raise ValidationError(msg, field=path)  # the place its text names
        return type(self)(**{name: changes.get(name, getattr(self, name)) for name in names})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            values_equal(getattr(self, name), getattr(other, name))
            for name in self.__struct_fields__
        )

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        values = tuple(hashable_value(getattr(self, name)) for name in self.__struct_fields__)
        return hash((self.TYPE, values))

    def __reduce__(self) -> tuple[Callable[..., Msg], tuple[type[Msg], dict[str, Any]]]:
        return (_rebuild, (type(self), self.as_dict()))

    def __repr__(self) -> str:
        """Msgspec's ``repr``, or the short form when an array is large (:mod:`.repr`)."""
        if has_large_array(self):
            return short_repr(self)
        text: str = super().__repr__()
        return text

    def _repr_field(self, name: str, value: Any) -> str | None:  # noqa: ARG002 - for overrides
        """Return a field's summary in the short ``repr`` of a large message (default: none)."""
        return None


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
    fields = {name: _keeping_arrays(getattr(message, name)) for name in message.__struct_fields__}
    return {"_type": message.TYPE, **fields}


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


def _rebuild(cls: type[M], fields: dict[str, Any]) -> M:
    """Unpickle through the constructor, so arrays come back read-only and validated.

    Fields of an older form (a name the type no longer has) are read as a document by
    :meth:`Msg.from_dict`, which states each type's migration (``_upgrade``); the nested
    messages, unpickled already, stand in for their dicts. Fields of today's names pass
    the same ``_upgrade``: a value whose meaning changed (``ErrorStats``' IAE of 0.0 over
    one sample, saved before d6abe9c) is read as a document of that release is.
    """
    if not fields.keys() <= set(cls.__struct_fields__):
        return cls.from_dict(fields)
    return cls(**cls._upgrade(fields))  # a value of an older meaning (ErrorStats' 0.0 IAE)


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


def _check_of(cls_ref: list[type[Msg]]) -> Callable[[Any], None]:
    """Return the construction check of the class ``cls_ref[0]`` (filled once it exists).

    Generated on the first construction (:func:`~robot_msgs.msg.check.deferred_check`),
    so a type may name types defined after it and an import costs no compilation.
    """

    def compile_now(namespace: dict[str, Any]) -> Callable[[Any], None]:
        cls = cls_ref[0]
        own_rules = cls._validate is not Msg._validate  # noqa: SLF001
        check = compile_check(cls, specs_of(cls), validate=own_rules, namespace=namespace)
        _CHECKS[cls] = check
        return check

    return deferred_check(compile_now)


@dataclass_transform(kw_only_default=True, frozen_default=True)
def message(
    type_name: str, *, ros2: str | None = None, derives: bool = False
) -> Callable[[type[M]], type[M]]:
    """Make a class a registered message type.

    Parameters
    ----------
    type_name : str
        ``"family/Name"``, written as ``"_type"`` and looked up by :func:`from_dict`.
    ros2 : str or None
        The ROS 2 equivalent, such as ``"geometry_msgs/msg/Pose"``, or ``None``.
    derives : bool
        Give instances a ``__dict__`` for :func:`functools.cached_property` values,
        derived from the fields and kept on first use (not fields: never compared,
        saved, hashed or copied).

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
        defaults = struct_defaults(cls)
        body = {
            k: v
            for k, v in cls.__dict__.items()
            if k not in _STRUCT_INTERNALS and k not in cls.__struct_fields__
        }
        body["__qualname__"] = cls.__qualname__
        body["__annotations__"] = dict(own)
        body.update({f: _as_struct_default(d) for f, d in defaults.items()})
        made_ref: list[type[Msg]] = []
        # msgspec calls the generated check itself: one call a message.
        body["__post_init__"] = _check_of(made_ref)
        made = typing.cast(
            "type[M]",
            types.new_class(
                cls.__name__,
                (Msg,),
                {"tag": type_name, "dict": derives},
                lambda namespace: namespace.update(body),
            ),
        )
        made.TYPE = type_name
        made.ROS2 = ros2
        made_ref.append(made)
        _REGISTRY[type_name] = made
        return made

    return wrap


def declared_types() -> Mapping[str, type[Msg]]:
    """Return a read-only view of the message types defined so far, by ``"_type"``.

    Only the modules imported so far have defined theirs: :mod:`robot_msgs.msg.registry`
    imports every message family first and is what callers want.
    """
    return types.MappingProxyType(_REGISTRY)
