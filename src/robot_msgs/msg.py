"""The message base: frozen, slotted, keyword-constructed, validated value types.

A message type is a class decorated with :func:`message`, which turns it into a
``dataclass(frozen=True, slots=True, kw_only=True)`` subclass of :class:`Msg` and
registers it under its ``"_type"`` (``"family/Name"``). The field annotations are
the schema: they are checked on construction and again in :meth:`Msg.replace`.

Supported field annotations
---------------------------
``int``, ``float``, ``str``, ``bool``; another message type; ``X | None``;
``tuple[X, ...]``; ``Mapping[str, X]`` (stored as an immutable, hashable
:class:`FrozenMap`); the scalar union :data:`Scalar` and the settings value :data:`Value`
(a scalar or a flat tuple of scalars); and NumPy arrays written as
``Annotated[npt.NDArray[np.float64], Shape("N", 3)]``: copied, cast safely to the
declared dtype, checked against the shape (named dimensions must agree across the
fields of one message) and made read-only.

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
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar, Union

import numpy as np

from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from collections.abc import Callable

    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> Callable[[T], T]:
        """Mark a decorator as dataclass-like for type checkers (no-op at run time)."""
        return lambda obj: obj


__all__ = [
    "FrozenMap",
    "Msg",
    "Scalar",
    "Shape",
    "Value",
    "declared_types",
    "message",
    "to_dict_keeping_arrays",
]

T = TypeVar("T")
M = TypeVar("M", bound="Msg")

Scalar = Union[str, float, int, bool, None]  # noqa: UP007  (a runtime alias, usable on 3.10)
"""A JSON scalar: the value type of metadata mappings."""

Value = Union[str, float, int, bool, None, tuple[Union[str, float, int, bool], ...]]  # noqa: UP007
"""A JSON scalar or a flat tuple of them (a JSON list): the value type of settings records,
where a setting such as segment lengths or a time window is a list, never a joined string."""

_REGISTRY: dict[str, type[Msg]] = {}


@dataclasses.dataclass(frozen=True)
class Shape:
    """Declared shape of an array field: ints are fixed, strings name a shared dimension.

    ``Shape("N", 3)`` is an ``(N, 3)`` array whose ``N`` must equal every other ``N``
    of the same message.
    """

    dims: tuple[int | str, ...]

    def __init__(self, *dims: int | str) -> None:
        object.__setattr__(self, "dims", tuple(dims))

    def __str__(self) -> str:
        inner = ", ".join(str(d) for d in self.dims)
        return f"({inner},)" if len(self.dims) == 1 else f"({inner})"


class FrozenMap(Mapping[str, T]):
    """An immutable, hashable, picklable ``str``-keyed mapping that keeps insertion order."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, T] | None = None) -> None:
        self._data: dict[str, T] = dict(data or {})

    def __getitem__(self, key: str) -> T:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return repr(self._data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        if set(self._data) != set(other):
            return False
        return all(_values_equal(v, other[k]) for k, v in self._data.items())

    def __hash__(self) -> int:
        return hash(frozenset((k, _hashable(v)) for k, v in self._data.items()))

    def __reduce__(self) -> tuple[type[FrozenMap[T]], tuple[dict[str, T]]]:
        return (type(self), (self._data,))


# --------------------------------------------------------------------------- field specs


@dataclasses.dataclass(frozen=True)
class _Spec:
    """What one annotation allows, compiled once per message class."""

    kind: str  # int, float, str, bool, scalar, value, msg, optional, tuple, mapping, array, any
    label: str
    msg_type: type[Msg] | None = None
    inner: _Spec | None = None
    dtype: np.dtype[Any] | None = None
    shape: Shape | None = None


def _compile(annotation: Any) -> _Spec:
    """Turn one resolved annotation into a :class:`_Spec`."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation is Any:
        return _Spec("any", "Any")
    if annotation is Scalar:
        return _Spec("scalar", "str | float | int | bool | None")
    if annotation is Value:
        return _Spec("value", "str | float | int | bool | None | tuple")
    if origin is Annotated:
        base, *meta = args
        shape = next((m for m in meta if isinstance(m, Shape)), None)
        dtype_args = typing.get_args(typing.get_args(base)[1]) if typing.get_args(base) else ()
        dtype = np.dtype(dtype_args[0]) if dtype_args else np.dtype(np.float64)
        label = f"{shape} {dtype}" if shape is not None else f"{dtype} array"
        return _Spec("array", label, dtype=dtype, shape=shape)
    if origin in (Union, types.UnionType):
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1 and len(args) == 2:
            inner = _compile(non_none[0])
            return _Spec("optional", f"{inner.label} | None", inner=inner)
        msg = f"Unsupported union annotation {annotation!r}"
        raise TypeError(msg)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        inner = _compile(args[0])
        return _Spec("tuple", f"tuple[{inner.label}, ...]", inner=inner)
    if origin in (Mapping, dict, typing.Mapping) and args and args[0] is str:
        inner = _compile(args[1])
        return _Spec("mapping", f"Mapping[str, {inner.label}]", inner=inner)
    if isinstance(annotation, type) and issubclass(annotation, Msg):
        return _Spec("msg", annotation.__name__, msg_type=annotation)
    names = {bool: "bool", int: "int", float: "float", str: "str"}
    if annotation in names:
        return _Spec(names[annotation], names[annotation])
    msg = f"Unsupported field annotation {annotation!r}"
    raise TypeError(msg)


_SPECS: dict[type, dict[str, _Spec]] = {}


def _specs(cls: type[Msg]) -> dict[str, _Spec]:
    """Compiled field specs of a message class, cached."""
    cached = _SPECS.get(cls)
    if cached is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        cached = {f.name: _compile(hints[f.name]) for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        _SPECS[cls] = cached
    return cached


def field_specs(cls: type[Msg]) -> dict[str, str]:
    """Field name to a readable type label, for documentation and error messages."""
    return {name: spec.label for name, spec in _specs(cls).items()}


# --------------------------------------------------------------------------- validation


def _got(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape} {value.dtype}"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def _fail(expected: str, value: object, path: str) -> ValidationError:
    reason = f"expected {expected}, got {_got(value)}"
    return ValidationError(
        f"Expected {expected}, got {_got(value)} - at `{path}`", field=path, reason=reason
    )


def _check(spec: _Spec, value: Any, path: str, dims: dict[str, tuple[int, str]]) -> Any:
    """Return ``value`` normalised to ``spec``, or raise :class:`ValidationError`."""
    kind = spec.kind
    if kind == "any":
        return value
    if kind == "optional":
        assert spec.inner is not None
        return None if value is None else _check(spec.inner, value, path, dims)
    if kind == "float":
        if isinstance(value, bool | np.bool_) or not isinstance(
            value, float | int | np.floating | np.integer
        ):
            raise _fail(expected="float", value=value, path=path)
        try:
            return float(value)
        except OverflowError as err:  # an int beyond the float range, e.g. 10**400
            raise _fail(expected="float (|x| < 1.8e308)", value=value, path=path) from err
    if kind == "int":
        if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
            raise _fail(expected="int", value=value, path=path)
        return int(value)
    if kind == "bool":
        if not isinstance(value, bool | np.bool_):
            raise _fail(expected="bool", value=value, path=path)
        return bool(value)
    if kind == "str":
        if not isinstance(value, str):
            raise _fail(expected="str", value=value, path=path)
        return value
    if kind == "scalar":
        return _scalar(spec, value, path)
    if kind == "value":
        if isinstance(value, tuple | list):
            return tuple(_scalar(spec, v, f"{path}[{i}]", none=False) for i, v in enumerate(value))
        return _scalar(spec, value, path)
    if kind == "msg":
        assert spec.msg_type is not None
        if not isinstance(value, spec.msg_type):
            raise _fail(expected=spec.msg_type.__name__, value=value, path=path)
        return value
    if kind == "tuple":
        assert spec.inner is not None
        if not isinstance(value, tuple | list):
            raise _fail(expected=spec.label, value=value, path=path)
        return tuple(_check(spec.inner, v, f"{path}[{i}]", dims) for i, v in enumerate(value))
    if kind == "mapping":
        assert spec.inner is not None
        if not isinstance(value, Mapping):
            raise _fail(expected=spec.label, value=value, path=path)
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _fail(expected="str key", value=key, path=path)
            out[key] = _check(spec.inner, item, f"{path}[{key!r}]", dims)
        return FrozenMap(out)
    if kind == "array":
        return _check_array(spec, value, path, dims)
    msg = f"unknown spec kind {kind}"  # pragma: no cover - _compile guards this
    raise AssertionError(msg)


def _scalar(spec: _Spec, value: Any, path: str, *, none: bool = True) -> Any:
    """Return a JSON scalar as its plain Python type (NumPy scalars converted), or raise."""
    if (value is None and none) or isinstance(value, str | bool):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value)
    raise _fail(expected=spec.label, value=value, path=path)


def _check_array(
    spec: _Spec, value: Any, path: str, dims: dict[str, tuple[int, str]]
) -> np.ndarray[Any, Any]:
    assert spec.dtype is not None
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise _fail(expected=spec.label, value=value, path=path) from err
    if arr.dtype == object or not np.can_cast(arr.dtype, spec.dtype, "same_kind"):
        raise _fail(expected=spec.label, value=value, path=path)
    if arr.size == 0 and arr.ndim == 1 and spec.shape is not None and len(spec.shape.dims) > 1:
        arr = arr.reshape((0, *(d if isinstance(d, int) else 0 for d in spec.shape.dims[1:])))
    if spec.shape is not None:
        want = spec.shape.dims
        if arr.ndim != len(want):
            raise _fail(expected=f"shape {spec.shape}", value=arr, path=path)
        for axis, (need, have) in enumerate(zip(want, arr.shape, strict=True)):
            if isinstance(need, int):
                if need != have:
                    raise _fail(expected=f"shape {spec.shape}", value=arr, path=path)
            elif need in dims and dims[need][0] != have:
                size, source = dims[need]
                expected = f"shape {spec.shape} with {need}={size} (from `{source}`)"
                raise _fail(expected=expected, value=arr, path=f"{path} axis {axis}")
            else:
                dims[need] = (have, path)
    if arr.dtype == spec.dtype and _immutable(arr):
        return arr  # nothing can write to it: sharing it is as safe as a copy, and free
    out = np.array(arr, dtype=spec.dtype, copy=True)
    out.setflags(write=False)
    return out


def _immutable(arr: np.ndarray[Any, Any]) -> bool:
    """Whether no one can write to ``arr``'s memory: it and every array it views read-only.

    WHY: messages built from other messages' arrays (a trajectory's rows, an error series'
    stamps) would otherwise copy them again; at 10^7 poses each copy of a trajectory is
    0.5 GB. Memory owned by something other than an array (a buffer, a memory map) is
    not trusted.
    """
    view: Any = arr
    while isinstance(view, np.ndarray):
        if view.flags.writeable:
            return False
        if view.base is None:
            return True
        view = view.base
    return isinstance(view, bytes)


# --------------------------------------------------------------------------- equality, hashing


def _values_equal(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        nan_ok = a.dtype.kind in "fc"
        return bool(np.array_equal(a, b, equal_nan=nan_ok))
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_values_equal(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b) and not (isinstance(a, Mapping) and isinstance(b, Mapping)):
        return False
    return bool(a == b)


_NAN_HASH = hash("robot_msgs:nan")


def _hashable(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return _NAN_HASH
    if isinstance(value, np.ndarray):
        canon = value
        if value.dtype.kind in "fc":
            canon = np.where(np.isnan(value), np.nan, value + 0)
        return (value.dtype.str, value.shape, canon.tobytes())
    if isinstance(value, tuple):
        return tuple(_hashable(v) for v in value)
    return value


# --------------------------------------------------------------------------- serialisation


def _message_dict(message: Msg, *, keep_arrays: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"_type": message.TYPE}
    for f in dataclasses.fields(message):  # type: ignore[arg-type]
        out[f.name] = _to_json(getattr(message, f.name), keep_arrays)
    return out


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
    return _message_dict(message, keep_arrays=True)


def _to_json(value: Any, keep_arrays: bool = False) -> Any:
    if isinstance(value, Msg):
        return _message_dict(value, keep_arrays=keep_arrays)
    if isinstance(value, np.ndarray):
        if keep_arrays:
            return value
        return {
            "dtype": str(value.dtype),
            "shape": list(value.shape),
            "data": value.ravel().tolist(),
        }
    if isinstance(value, tuple):
        return [_to_json(v, keep_arrays) for v in value]
    if isinstance(value, Mapping):
        return {k: _to_json(v, keep_arrays) for k, v in value.items()}
    return value


def _from_json(spec: _Spec, value: Any, path: str) -> Any:
    """Undo :func:`_to_json` for one field; validation proper happens in the constructor."""
    kind = spec.kind
    if kind == "optional":
        assert spec.inner is not None
        return None if value is None else _from_json(spec.inner, value, path)
    if kind == "msg":
        assert spec.msg_type is not None
        if not isinstance(value, Mapping):
            raise _fail(expected=f"{spec.msg_type.__name__} as a dict", value=value, path=path)
        return _build(spec.msg_type, value, path)
    if kind == "tuple":
        assert spec.inner is not None
        if not isinstance(value, list | tuple):
            raise _fail(expected=f"{spec.label} as a list", value=value, path=path)
        return tuple(_from_json(spec.inner, v, f"{path}[{i}]") for i, v in enumerate(value))
    if kind == "mapping":
        assert spec.inner is not None
        if not isinstance(value, Mapping):
            raise _fail(expected=f"{spec.label} as a dict", value=value, path=path)
        return {k: _from_json(spec.inner, v, f"{path}[{k!r}]") for k, v in value.items()}
    if kind == "array":
        return _array_from_json(value, path)
    if kind == "float" and value is None:
        return math.nan  # strict JSON writers turn NaN into null
    if kind == "value" and isinstance(value, list):
        return tuple(value)
    return value


_ARRAY_KEYS = frozenset({"dtype", "shape", "data"})


def _array_from_json(value: Any, path: str) -> np.ndarray[Any, Any]:
    """Undo :func:`_to_json` for one array: exactly the three keys, a shape that fits the data.

    Each flaw names the key at fault (``path.dtype``, ``path.shape``, ``path.data``); values
    the dtype cannot hold (``1000`` as ``int8``, ``10**400``) are a :class:`ValidationError`,
    not NumPy's ``OverflowError``. An array itself (:func:`to_dict_keeping_arrays`, the
    form binary result files hold) is taken as it is; the constructor checks and copies it.
    """
    if isinstance(value, np.ndarray):
        return value
    if not (isinstance(value, Mapping) and set(value) == _ARRAY_KEYS):
        keys = sorted(map(str, value)) if isinstance(value, Mapping) else None
        expected = 'an array dict with exactly the keys "dtype", "shape" and "data"'
        raise _fail(expected=expected, value=keys if keys is not None else value, path=path)
    try:
        dtype = np.dtype(value["dtype"])
    except (TypeError, ValueError) as err:
        raise _fail(
            expected="a NumPy dtype name", value=value["dtype"], path=f"{path}.dtype"
        ) from err
    shape = value["shape"]
    if not (
        isinstance(shape, list | tuple)
        and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)
    ):
        raise _fail(expected="a list of sizes >= 0", value=shape, path=f"{path}.shape")
    data = value["data"]
    if not isinstance(data, list | tuple) or len(data) != math.prod(shape):
        expected = f"a flat list of {math.prod(shape)} values (shape {list(shape)})"
        raise _fail(expected=expected, value=data, path=f"{path}.data")
    try:
        arr = np.asarray(data, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as err:
        raise _fail(expected=f"values that fit {dtype}", value=data, path=f"{path}.data") from err
    if arr.ndim != 1:
        raise _fail(expected="a flat list of numbers", value=data, path=f"{path}.data")
    if dtype.kind in "biu" and arr.size and not np.can_cast(np.asarray(data).dtype, dtype):
        # NumPy would truncate 1.5 to 1 and read 2 as True: refuse what the dtype cannot hold.
        raise _fail(expected=f"values that fit {dtype}", value=data, path=f"{path}.data")
    return arr.reshape(tuple(shape))


def _build(cls: type[M], data: Mapping[str, Any], path: str) -> M:
    type_name = data.get("_type", cls.TYPE)
    if type_name != cls.TYPE:
        msg = f"Expected _type {cls.TYPE!r}, got {type_name!r} - at `{path}._type`"
        raise ValidationError(msg)
    specs = _specs(cls)
    unknown = sorted(set(data) - set(specs) - {"_type"})
    if unknown:
        msg = f"Expected fields of {cls.__name__}, got unknown field {unknown[0]!r} - at `{path}`"
        raise ValidationError(msg)
    kwargs = {
        name: _from_json(spec, data[name], f"{path}.{name}")
        for name, spec in specs.items()
        if name in data
    }
    missing = [
        f.name
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        if f.name not in kwargs
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
    if missing:
        msg = f"Expected required field {missing[0]!r}, got nothing - at `{path}.{missing[0]}`"
        raise ValidationError(msg)
    try:
        return cls(**kwargs)
    except ValidationError as err:
        text = str(err).replace(f"at `{cls.__name__}.", f"at `{path}.")
        raise ValidationError(text) from err


# --------------------------------------------------------------------------- the base class


class Msg:
    """Base of every message type: immutable, validated, serialisable, comparable by value.

    Subclasses are made with the :func:`message` decorator. ``TYPE`` is the
    ``"family/Name"`` string written as ``"_type"``; ``ROS2`` the ROS 2 equivalent
    (``"geometry_msgs/msg/Pose"``) or ``None``.
    """

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    ROS2: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        dims: dict[str, tuple[int, str]] = {}
        name = type(self).__name__
        for field_name, spec in _specs(type(self)).items():
            value = getattr(self, field_name)
            checked = _check(spec, value, f"{name}.{field_name}", dims)
            if checked is not value:
                object.__setattr__(self, field_name, checked)
        self._validate()

    def _validate(self) -> None:
        """Cross-field checks of a subclass; raise :class:`ValidationError` on failure."""

    def _fail(self, field: str, expected: str, got: object) -> ValidationError:
        """Build a :class:`ValidationError` for ``field`` of this message."""
        return _fail(expected=expected, value=got, path=f"{type(self).__name__}.{field}")

    @classmethod
    def from_dict(cls: type[M], data: Mapping[str, Any]) -> M:  # noqa: PYI019
        """Build a message from its :meth:`to_dict` form (the exact inverse).

        Fields missing from ``data`` take their defaults, so data written before a
        defaulted field existed still loads; a wrong ``"_type"``, an unknown field or
        a missing required one raise :class:`~robot_msgs.errors.ValidationError`.
        """
        if not isinstance(data, Mapping):
            raise _fail(expected=f"{cls.__name__} as a dict", value=data, path=cls.__name__)
        return _build(cls, data, cls.__name__)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dict with a "_type" key; arrays keep their dtype and shape."""
        return _message_dict(self, keep_arrays=False)

    def as_dict(self) -> dict[str, Any]:
        """Plain field values by name, one level deep (nested messages stay messages)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    def replace(self: M, **changes: Any) -> M:  # noqa: PYI019
        """A copy with some fields changed. Validation runs again."""  # noqa: D401 - the seed page's text
        names = {f.name for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        unknown = sorted(set(changes) - names)
        if unknown:
            path = f"{type(self).__name__}.{unknown[0]}"
            msg = f"Expected a field of {type(self).__name__}, got {unknown[0]!r} - at `{path}`"
            raise ValidationError(msg)
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            _values_equal(getattr(self, f.name), getattr(other, f.name))
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
        )

    def __hash__(self) -> int:
        values = tuple(_hashable(getattr(self, f.name)) for f in dataclasses.fields(self))  # type: ignore[arg-type]
        return hash((self.TYPE, values))

    def __reduce__(self) -> tuple[Callable[..., Msg], tuple[type[Msg], dict[str, Any]]]:
        return (_rebuild, (type(self), self.as_dict()))


def _rebuild(cls: type[M], fields: dict[str, Any]) -> M:
    """Unpickle through the constructor, so arrays come back read-only and validated."""
    return cls(**fields)


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
        cls.TYPE = type_name
        cls.ROS2 = ros2
        # eq=False: equality and hashing are Msg's (arrays by value, NaN equal to NaN).
        made = dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)(cls)
        _REGISTRY[type_name] = made
        return made

    return wrap


def declared_types() -> Mapping[str, type[Msg]]:
    """Return a read-only view of the message types defined so far, by ``"_type"``.

    Only the modules imported so far have defined theirs: :mod:`robot_msgs.registry`
    imports every message family first and is what callers want.
    """
    return types.MappingProxyType(_REGISTRY)
