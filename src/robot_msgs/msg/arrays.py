"""Array fields of messages, and the one error format of the message base.

An array field (``Annotated[npt.NDArray[np.float64], Shape("N", 3)]``) holds a read-only
NumPy array of its declared dtype and shape. :func:`check_array` makes one from what a
user or a reader hands over, as scalars are checked: a cast only where no value changes
(an ``int8`` array refuses 200, a ``float32`` array refuses 1e39, each named by its
index), ``bytes`` for ``uint8`` and lists of Python ints beyond int64 taken, ROS's flat
fixed arrays reshaped to the declared matrix, named dimensions agreeing across the
message; the array is copied unless nothing can write to it. :func:`array_to_json` and
:func:`array_from_json` are its JSON form ``{"dtype", "shape", "data"}``.
:func:`field_error` is the message base's error: "Expected X, got Y - at `Type.field`".
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from robot_msgs.msg.fields import FieldSpec

__all__ = [
    "NON_FINITE",
    "Shape",
    "array_from_json",
    "array_to_json",
    "check_array",
    "field_error",
    "immutable",
]

#: Sizes of the named array dimensions met so far in a message: name -> (size, field path).
Dims = dict[str, tuple[int, str]]

#: How strict JSON writes the non-finite floats (the proto3 JSON mapping's strings), and
#: what each reads back as. NaN is also written ``null`` where ``null`` cannot mean None.
NON_FINITE: dict[str, float] = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


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


def _as_array(want: np.dtype[Any], label: str, value: Any, path: str) -> np.ndarray[Any, Any]:
    """Return ``value`` as an array whose values ``want`` holds exactly (before the copy)."""
    if isinstance(value, bytes | bytearray | memoryview) and want == np.uint8:
        return np.frombuffer(value, dtype=np.uint8)
    if want.kind in "iu" and isinstance(value, list | tuple):
        return _ints(want, value, path)
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise field_error(expected=label, value=value, path=path) from err
    have = arr.dtype.kind
    if arr.dtype == want:
        return arr
    if want.kind in "iu" and have in "iu":
        if arr.size:
            info = np.iinfo(want)
            bad = (arr < info.min) | (arr > info.max)
            if bad.any():
                return _refuse_item(f"{want} ({info.min}..{info.max})", arr, bad, path)
        return arr
    if want.kind == "f" and have in "iuf":
        if want.itemsize < arr.dtype.itemsize or have != "f":
            with np.errstate(over="ignore", invalid="ignore"):
                cast = arr.astype(want)
            bad = np.isinf(cast) & np.isfinite(arr)
            if bad.any():
                return _refuse_item(f"{want} (|x| <= {np.finfo(want).max})", arr, bad, path)
            return cast
        return arr
    if want.kind == "b" and have == "b":
        return arr
    raise field_error(expected=label, value=arr, path=path)


def _ints(
    dtype: np.dtype[Any], values: list[Any] | tuple[Any, ...], path: str, *, checked: bool = False
) -> np.ndarray[Any, Any]:
    """Return a list of Python ints as an array of the field's integer dtype: each must fit.

    ``checked``: the caller knows every value is a Python ``int``.
    """
    info = np.iinfo(dtype)
    if checked or set(map(type, values)) <= {int}:
        fast = np.asarray(values)
        if fast.dtype.kind in "iu" and (
            not fast.size or (info.min <= fast.min() and fast.max() <= info.max)
        ):
            return fast.astype(dtype)
    for i, v in enumerate(values):
        if isinstance(v, np.integer):
            v = int(v)  # noqa: PLW2901 - the same value, as Python's int
        if type(v) is not int or not info.min <= v <= info.max:
            expected = f"{dtype} ({info.min}..{info.max})"
            raise field_error(expected=expected, value=v, path=f"{path}[{i}]")
    return np.array(values, dtype=dtype)


def _refuse_item(
    expected: str, arr: np.ndarray[Any, Any], bad: np.ndarray[Any, Any], path: str
) -> np.ndarray[Any, Any]:
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    where = "".join(f"[{i}]" for i in index)
    raise field_error(expected=expected, value=arr[index].item(), path=f"{path}{where}")


def check_array(spec: FieldSpec, value: Any, path: str, dims: Dims) -> np.ndarray[Any, Any]:
    """Return ``value`` as the read-only array ``spec`` declares, or raise naming the item.

    ``dims`` holds the sizes of the named dimensions met so far in the message.
    """
    dtype = typing.cast("np.dtype[Any]", spec.dtype)  # set for an array (compile_annotation)
    arr = _as_array(dtype, spec.label, value, path)
    if arr.ndim == 1 and spec.shape is not None and len(spec.shape.dims) > 1:
        fixed = spec.shape.dims
        if arr.size == 0:
            arr = arr.reshape((0, *(d if isinstance(d, int) else 0 for d in fixed[1:])))
        elif all(isinstance(d, int) for d in fixed) and arr.size == math.prod(fixed):
            arr = arr.reshape(fixed)  # ROS's flat layout: float64[36] is a (6, 6), row-major
    if spec.shape is not None:
        _check_shape(spec.shape, arr, path, dims)
    out: np.ndarray[Any, Any]
    if arr.dtype == dtype:
        if immutable(arr):
            return arr  # nothing can write to it: sharing it is as safe as a copy, and free
        out = arr.copy()
    else:
        out = arr.astype(dtype, order="C")  # a new array, the same values (checked)
    out.setflags(write=False)
    return out


def _check_shape(shape: Shape, arr: np.ndarray[Any, Any], path: str, dims: Dims) -> None:
    want = shape.dims
    if arr.ndim != len(want):
        raise field_error(expected=f"shape {shape}", value=arr, path=path)
    for axis, (need, have) in enumerate(zip(want, arr.shape, strict=True)):
        if isinstance(need, int):
            if need != have:
                raise field_error(expected=f"shape {shape}", value=arr, path=path)
        elif need in dims and dims[need][0] != have:
            size, source = dims[need]
            expected = f"shape {shape} with {need}={size} (from `{source}`)"
            raise field_error(expected=expected, value=arr, path=f"{path} axis {axis}")
        else:
            dims[need] = (have, path)


def immutable(arr: np.ndarray[Any, Any]) -> bool:
    """Whether no one can write to ``arr``'s memory: it and every array it views read-only.

    WHY: messages built from other messages' arrays (a trajectory's rows, an error series'
    stamps) would otherwise copy them again; at 10^7 poses each copy of a trajectory is
    0.5 GB. Memory owned by something other than an array is trusted only when it is
    ``bytes`` (a CDR message read from a bag), or a read-only view of them.
    """
    view: Any = arr
    while isinstance(view, np.ndarray):
        if view.flags.writeable:
            return False
        if view.base is None:
            return True
        view = view.base
    if isinstance(view, memoryview) and view.readonly:
        view = view.obj
    return isinstance(view, bytes)


# --------------------------------------------------------------------------- arrays in JSON

_ARRAY_KEYS = frozenset({"dtype", "shape", "data"})


def array_to_json(value: np.ndarray[Any, Any]) -> dict[str, Any]:
    """Return an array as ``{"dtype", "shape", "data"}``, data flat and row-major.

    Infinities become the strings ``"Infinity"``/``"-Infinity"`` (:data:`NON_FINITE`),
    NaN stays a float (the JSON encoder writes ``null``).
    """
    data = value.ravel().tolist()
    if value.dtype.kind == "f" and value.size:
        infinite = (
            not _INFINITIES.isdisjoint(data) if value.size < _SMALL else np.isinf(value).any()
        )
        if infinite:
            for i, x in enumerate(data):
                if x in _INFINITIES:
                    data[i] = "Infinity" if x > 0 else "-Infinity"
    return {"dtype": dtype_name(value.dtype), "shape": list(value.shape), "data": data}


_INFINITIES = frozenset({math.inf, -math.inf})
#: Below this many values a set test of the list is faster than NumPy's (measured: a call
#: to ``np.isinf`` costs what hashing some thousands of floats does).
_SMALL = 4096
_NAMES: dict[np.dtype[Any], str] = {}


def dtype_name(dtype: np.dtype[Any]) -> str:
    """Return ``str(dtype)`` (``"float64"``), cached: NumPy computes it in Python each time."""
    name = _NAMES.get(dtype)
    if name is None:
        name = _NAMES[dtype] = str(dtype)
    return name


def array_from_json(
    value: Any, path: str, dtype: np.dtype[Any] | None = None
) -> np.ndarray[Any, Any]:
    """Undo :func:`array_to_json` for one array: exactly the three keys, a shape that fits.

    Each flaw names the key at fault (``path.dtype``, ``path.shape``, ``path.data``); values
    the dtype cannot hold (``1000`` as ``int8``, ``10**400``) are a :class:`ValidationError`,
    not NumPy's ``OverflowError``. In a float array ``null`` and ``"NaN"`` are NaN and
    ``"Infinity"``/``"-Infinity"`` the infinities. An array itself
    (``to_dict_keeping_arrays``, the form binary result files hold) is taken as it is; the
    constructor checks and copies it. ``dtype``: the field's, which the dict must name
    exactly (as :func:`array_to_json` writes it).
    """
    if isinstance(value, np.ndarray):
        return value
    if not (isinstance(value, Mapping) and value.keys() == _ARRAY_KEYS):
        keys = sorted(map(str, value)) if isinstance(value, Mapping) else None
        expected = 'an array dict with exactly the keys "dtype", "shape" and "data"'
        raise field_error(expected=expected, value=keys if keys is not None else value, path=path)
    if dtype is not None:
        if value["dtype"] != dtype_name(dtype):
            expected = repr(dtype_name(dtype))
            raise field_error(expected=expected, value=value["dtype"], path=f"{path}.dtype")
    else:
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
    kinds = set(map(type, data))
    if dtype.kind == "f" and kinds <= {float} and dtype == np.float64:
        arr = np.array(data, dtype=dtype)  # the common case: floats as they were written
    elif dtype.kind == "f" and kinds <= {float} and dtype == np.float32 and len(data) < _SMALL:
        with np.errstate(over="ignore"):
            arr = np.array(data, dtype=dtype)  # rounded to the nearest float32
        if not _INFINITIES.isdisjoint(arr.tolist()):  # an overflow, or an infinity given
            arr = _as_array(dtype, dtype_name(dtype), np.asarray(data), f"{path}.data")
    elif dtype.kind == "f":
        arr = np.asarray(data if kinds <= {float} else _floats_from_json(data, f"{path}.data"))
        arr = _as_array(dtype, dtype_name(dtype), arr, f"{path}.data")
    elif dtype.kind in "iu" and kinds <= {int}:
        arr = _ints(dtype, data, f"{path}.data", checked=True)
    elif dtype.kind == "b" and kinds <= {bool}:
        arr = np.array(data, dtype=dtype)
    else:
        raise field_error(expected=f"values that fit {dtype}", value=data, path=f"{path}.data")
    out = arr.astype(dtype, copy=False).reshape(tuple(shape))
    out.setflags(write=False)  # new and ours: the message keeps it without a copy
    return out


def _floats_from_json(data: list[Any] | tuple[Any, ...], path: str) -> Any:
    """Read a float array's JSON values: numbers, ``null``/``"NaN"``, the infinity strings."""
    out: list[float] = []
    for i, v in enumerate(data):
        if v is None:
            out.append(math.nan)
        elif isinstance(v, str) and v in NON_FINITE:
            out.append(NON_FINITE[v])
        elif isinstance(v, float | int) and not isinstance(v, bool):
            out.append(_number(v, f"{path}[{i}]"))
        else:
            expected = f"a number, null or one of {', '.join(NON_FINITE)}"
            raise field_error(expected=expected, value=v, path=f"{path}[{i}]")
    return out


def _number(value: float, path: str) -> float:
    try:
        return float(value)
    except OverflowError as err:
        raise field_error(expected="float (|x| < 1.8e308)", value=value, path=path) from err
