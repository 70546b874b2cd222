"""What message fields hold: annotations compiled to specs, value checks, arrays, equality.

The half of the message base that is ours and not msgspec's (:mod:`robot_msgs.msg` says
why): an annotation becomes a :data:`FieldSpec` once per class; :func:`check_value`
normalises a value to it (ints to floats, lists to tuples, mappings to :class:`FrozenMap`,
arrays copied, cast and made read-only, their named dimensions agreeing across fields) or
raises a :class:`~robot_msgs.errors.ValidationError` naming the field path;
:func:`values_equal` and :func:`hashable_value` compare NaN equal to NaN and arrays by value.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from typing import Annotated, Any, TypeVar, Union

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.primitives import BOUNDS, FLOAT32_MAX, Ros

__all__ = [
    "FieldSpec",
    "FrozenMap",
    "Scalar",
    "Shape",
    "Value",
    "array_from_json",
    "check_value",
    "compile_annotation",
    "field_error",
    "hashable_value",
    "values_equal",
]

T = TypeVar("T")


Scalar = Union[str, float, int, bool, None]  # noqa: UP007  (a runtime alias, usable on 3.10)
"""A JSON scalar: the value type of metadata mappings."""

Value = Union[str, float, int, bool, None, tuple[Union[str, float, int, bool], ...]]  # noqa: UP007
"""A JSON scalar or a flat tuple of them (a JSON list): the value type of settings records,
where a setting such as segment lengths or a time window is a list, never a joined string."""


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
        return all(values_equal(v, other[k]) for k, v in self._data.items())

    def __hash__(self) -> int:
        return hash(frozenset((k, hashable_value(v)) for k, v in self._data.items()))

    def __reduce__(self) -> tuple[type[FrozenMap[T]], tuple[dict[str, T]]]:
        return (type(self), (self._data,))


# --------------------------------------------------------------------------- field specs


@dataclasses.dataclass(frozen=True)
class FieldSpec:
    """What one annotation allows, compiled once per message class."""

    kind: str  # int, float, str, bool, scalar, value, msg, optional, tuple, mapping, array, any
    label: str
    msg_type: Any = None
    inner: FieldSpec | None = None
    dtype: np.dtype[Any] | None = None
    shape: Shape | None = None
    bounds: tuple[int, int] | None = None


def compile_annotation(annotation: Any, base: type) -> FieldSpec:
    """Turn one resolved annotation into a :class:`FieldSpec`."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if annotation is Any:
        return FieldSpec("any", "Any")
    if annotation is Scalar:
        return FieldSpec("scalar", "str | float | int | bool | None")
    if annotation is Value:
        return FieldSpec("value", "str | float | int | bool | None | tuple")
    if origin is Annotated:
        base, *meta = args
        ros = next((m for m in meta if isinstance(m, Ros)), None)
        if ros is not None:
            if base is int and ros.name in BOUNDS:
                low, high = BOUNDS[ros.name]
                return FieldSpec("int", f"{ros.name} ({low}..{high})", bounds=(low, high))
            if base is float and ros.name == "float32":
                return FieldSpec("float32", "float32")
            msg = f"Unsupported field annotation {annotation!r}"
            raise TypeError(msg)
        shape = next((m for m in meta if isinstance(m, Shape)), None)
        dtype_args = typing.get_args(typing.get_args(base)[1]) if typing.get_args(base) else ()
        dtype = np.dtype(dtype_args[0]) if dtype_args else np.dtype(np.float64)
        label = f"{shape} {dtype}" if shape is not None else f"{dtype} array"
        return FieldSpec("array", label, dtype=dtype, shape=shape)
    if origin in (Union, types.UnionType):
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1 and len(args) == 2:
            inner = compile_annotation(non_none[0], base)
            return FieldSpec("optional", f"{inner.label} | None", inner=inner)
        msg = f"Unsupported union annotation {annotation!r}"
        raise TypeError(msg)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        inner = compile_annotation(args[0], base)
        return FieldSpec("tuple", f"tuple[{inner.label}, ...]", inner=inner)
    if origin in (Mapping, dict, typing.Mapping) and args and args[0] is str:
        inner = compile_annotation(args[1], base)
        return FieldSpec("mapping", f"Mapping[str, {inner.label}]", inner=inner)
    if isinstance(annotation, type) and issubclass(annotation, base):
        return FieldSpec("msg", annotation.__name__, msg_type=annotation)
    names = {bool: "bool", int: "int", float: "float", str: "str"}
    if annotation in names:
        return FieldSpec(names[annotation], names[annotation])
    msg = f"Unsupported field annotation {annotation!r}"
    raise TypeError(msg)


# --------------------------------------------------------------------------- validation


def _got(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape} {value.dtype}"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def field_error(expected: str, value: object, path: str) -> ValidationError:
    """Return the :class:`ValidationError` "Expected X, got Y - at `path`"."""
    reason = f"expected {expected}, got {_got(value)}"
    return ValidationError(
        f"Expected {expected}, got {_got(value)} - at `{path}`", field=path, reason=reason
    )


_FLOAT = FieldSpec("float", "float")

#: Per spec kind, the exact types that :func:`check_value` would return unchanged: a
#: sequence or mapping whose items all have one of them is taken as a whole, so the
#: item-by-item walk (and its path strings) runs only where an item needs a conversion or
#: is an error. A third of the cost of loading a stored run report, measured.
_UNCHANGED: dict[str, tuple[type, ...]] = {
    "float": (float,),
    "int": (),  # bounds may apply: always checked
    "str": (str,),
    "bool": (bool,),
    "scalar": (str, bool, int, float, type(None)),
    "value": (str, bool, int, float, type(None)),
}


def _all_unchanged(spec: FieldSpec, items: Iterable[Any]) -> bool:
    """Whether every item is returned unchanged by ``check_value(spec, item, ...)``."""
    if spec.kind == "msg":
        wanted = spec.msg_type
        return all(type(item) is wanted for item in items)
    exact = _UNCHANGED.get(spec.kind, ())
    return bool(exact) and all(type(item) in exact for item in items)


def check_value(spec: FieldSpec, value: Any, path: str, dims: dict[str, tuple[int, str]]) -> Any:
    """Return ``value`` normalised to ``spec``, or raise :class:`ValidationError`."""
    kind = spec.kind
    if kind == "any":
        return value
    if kind == "optional":
        assert spec.inner is not None
        return None if value is None else check_value(spec.inner, value, path, dims)
    if kind == "float":
        if isinstance(value, bool | np.bool_) or not isinstance(
            value, float | int | np.floating | np.integer
        ):
            raise field_error(expected="float", value=value, path=path)
        try:
            return float(value)
        except OverflowError as err:  # an int beyond the float range, e.g. 10**400
            raise field_error(expected="float (|x| < 1.8e308)", value=value, path=path) from err
    if kind == "int":
        if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
            raise field_error(expected="int", value=value, path=path)
        value = int(value)
        if spec.bounds is not None and not spec.bounds[0] <= value <= spec.bounds[1]:
            raise field_error(expected=spec.label, value=value, path=path)
        return value
    if kind == "float32":
        number = check_value(_FLOAT, value, path, dims)
        if math.isfinite(number) and abs(number) > FLOAT32_MAX:
            raise field_error(expected="float32 (|x| <= 3.4e38)", value=value, path=path)
        return float(np.float32(number))
    if kind == "bool":
        if not isinstance(value, bool | np.bool_):
            raise field_error(expected="bool", value=value, path=path)
        return bool(value)
    if kind == "str":
        if not isinstance(value, str):
            raise field_error(expected="str", value=value, path=path)
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
            raise field_error(expected=spec.msg_type.__name__, value=value, path=path)
        return value
    if kind == "tuple":
        assert spec.inner is not None
        if isinstance(value, np.ndarray) and value.ndim == 1:
            value = value.tolist()  # ROS readers give numeric sequences as arrays
        elif not isinstance(value, tuple | list):
            raise field_error(expected=spec.label, value=value, path=path)
        if _all_unchanged(spec.inner, value):
            return value if type(value) is tuple else tuple(value)
        return tuple(check_value(spec.inner, v, f"{path}[{i}]", dims) for i, v in enumerate(value))
    if kind == "mapping":
        assert spec.inner is not None
        if not isinstance(value, Mapping):
            raise field_error(expected=spec.label, value=value, path=path)
        if all(type(key) is str for key in value) and _all_unchanged(spec.inner, value.values()):
            return value if type(value) is FrozenMap else FrozenMap(value)
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise field_error(expected="str key", value=key, path=path)
            out[key] = check_value(spec.inner, item, f"{path}[{key!r}]", dims)
        return FrozenMap(out)
    if kind == "array":
        return _check_array(spec, value, path, dims)
    msg = f"unknown spec kind {kind}"  # pragma: no cover - _compile guards this
    raise AssertionError(msg)


def _scalar(spec: FieldSpec, value: Any, path: str, *, none: bool = True) -> Any:
    """Return a JSON scalar as its plain Python type (NumPy scalars converted), or raise."""
    if (value is None and none) or isinstance(value, str | bool):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return float(value)
    raise field_error(expected=spec.label, value=value, path=path)


def _check_array(
    spec: FieldSpec, value: Any, path: str, dims: dict[str, tuple[int, str]]
) -> np.ndarray[Any, Any]:
    assert spec.dtype is not None
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise field_error(expected=spec.label, value=value, path=path) from err
    if arr.dtype == object or not np.can_cast(arr.dtype, spec.dtype, "same_kind"):
        raise field_error(expected=spec.label, value=value, path=path)
    if arr.ndim == 1 and spec.shape is not None and len(spec.shape.dims) > 1:
        fixed = spec.shape.dims
        if arr.size == 0:
            arr = arr.reshape((0, *(d if isinstance(d, int) else 0 for d in fixed[1:])))
        elif all(isinstance(d, int) for d in fixed) and arr.size == math.prod(fixed):
            arr = arr.reshape(fixed)  # ROS's flat layout: float64[36] is a (6, 6), row-major
    if spec.shape is not None:
        want = spec.shape.dims
        if arr.ndim != len(want):
            raise field_error(expected=f"shape {spec.shape}", value=arr, path=path)
        for axis, (need, have) in enumerate(zip(want, arr.shape, strict=True)):
            if isinstance(need, int):
                if need != have:
                    raise field_error(expected=f"shape {spec.shape}", value=arr, path=path)
            elif need in dims and dims[need][0] != have:
                size, source = dims[need]
                expected = f"shape {spec.shape} with {need}={size} (from `{source}`)"
                raise field_error(expected=expected, value=arr, path=f"{path} axis {axis}")
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


def values_equal(a: Any, b: Any) -> bool:
    """Whether two field values are equal: NaN equals NaN, arrays by dtype, shape and value."""
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
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b) and not (isinstance(a, Mapping) and isinstance(b, Mapping)):
        return False
    return bool(a == b)


_NAN_HASH = hash("robot_msgs:nan")


def hashable_value(value: Any) -> Any:
    """Return a hashable stand-in of a field value, equal for values :func:`values_equal`."""
    if isinstance(value, float) and math.isnan(value):
        return _NAN_HASH
    if isinstance(value, np.ndarray):
        canon = value
        if value.dtype.kind in "fc":
            canon = np.where(np.isnan(value), np.nan, value + 0)
        return (value.dtype.str, value.shape, canon.tobytes())
    if isinstance(value, tuple):
        return tuple(hashable_value(v) for v in value)
    return value


_ARRAY_KEYS = frozenset({"dtype", "shape", "data"})


def array_from_json(value: Any, path: str) -> np.ndarray[Any, Any]:
    """Undo :func:`_to_json` for one array: exactly the three keys, a shape that fits the data.

    Each flaw names the key at fault (``path.dtype``, ``path.shape``, ``path.data``); values
    the dtype cannot hold (``1000`` as ``int8``, ``10**400``) are a :class:`ValidationError`,
    not NumPy's ``OverflowError``. An array itself (``to_dict_keeping_arrays``, the form
    binary result files hold) is taken as it is; the constructor checks and copies it.
    """
    if isinstance(value, np.ndarray):
        return value
    if not (isinstance(value, Mapping) and set(value) == _ARRAY_KEYS):
        keys = sorted(map(str, value)) if isinstance(value, Mapping) else None
        expected = 'an array dict with exactly the keys "dtype", "shape" and "data"'
        raise field_error(expected=expected, value=keys if keys is not None else value, path=path)
    try:
        dtype = np.dtype(value["dtype"])
    except (TypeError, ValueError, SyntaxError) as err:  # NumPy reads "(9...9)f8" with ast
        raise field_error(
            expected="a NumPy dtype name", value=value["dtype"], path=f"{path}.dtype"
        ) from err
    shape = value["shape"]
    if not (
        isinstance(shape, list | tuple)
        and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape)
    ):
        raise field_error(expected="a list of sizes >= 0", value=shape, path=f"{path}.shape")
    data = value["data"]
    if not isinstance(data, list | tuple) or len(data) != math.prod(shape):
        expected = f"a flat list of {math.prod(shape)} values (shape {list(shape)})"
        raise field_error(expected=expected, value=data, path=f"{path}.data")
    try:
        arr = np.asarray(data, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as err:
        raise field_error(
            expected=f"values that fit {dtype}", value=data, path=f"{path}.data"
        ) from err
    if arr.ndim != 1:
        raise field_error(expected="a flat list of numbers", value=data, path=f"{path}.data")
    if dtype.kind in "biu" and arr.size and not _fits(np.asarray(data), dtype):
        # NumPy would truncate 1.5 to 1 and read 2 as True: refuse what the dtype cannot hold.
        raise field_error(expected=f"values that fit {dtype}", value=data, path=f"{path}.data")
    return arr.reshape(tuple(shape))


def _fits(source: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> bool:
    """Whether the values read from JSON (``source``) are exactly representable in ``dtype``."""
    if dtype.kind == "b":
        return bool(source.dtype.kind == "b")
    if source.dtype.kind not in "iu":
        return False
    info = np.iinfo(dtype)
    return bool(info.min <= source.min() and source.max() <= info.max)
