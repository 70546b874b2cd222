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

import contextlib
import dataclasses
import functools
import math
import reprlib
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.series import masked_count

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.msg.fields import FieldSpec

__all__ = [
    "NON_FINITE",
    "Shape",
    "array_from_json",
    "array_reader",
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
        masked = masked_count(value)
        held = f" with {masked} masked" if masked else ""
        return f"array of shape {value.shape} {value.dtype}{held}"
    try:
        text = repr(value)
    except RecursionError:  # lists in lists thousands deep: repr gives up, reprlib does not
        text = reprlib.repr(value)
    except ValueError:  # an int of more than 4300 digits (sys.int_info): str refuses it too
        text = f"of {value.bit_length()} bits" if isinstance(value, int) else "(unprintable)"
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
    if masked_count(value):  # np.asarray drops the mask: masked values were kept as values
        expected = f"{label} without masked values (numpy.ma's mask is not read)"
        raise field_error(expected=expected, value=value, path=path)
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


def immutable(arr: np.ndarray[Any, Any], *, owned: bool = True) -> bool:
    """Whether no one can write to ``arr``'s memory: it and every array it views read-only.

    The rule, by what the chain of ``arr`` and the arrays it views ends in:

    - ``bytes`` (a CDR message read from a bag), or a read-only ``memoryview`` of them:
      immutable, provably (NumPy refuses ``setflags(write=True)`` over them);
    - a read-only array that owns its memory: trusted where ``owned`` (the default, a
      message's rule), by convention, not proof: a view taken before
      ``setflags(write=False)`` still writes to it, and whoever holds it may call
      ``setflags(write=True)`` again. The package's own such arrays are its copies, made
      read-only before anyone sees them (:func:`check_array`), so none has such a view;
      one handed over by a user is shared as given. ``owned=False``: not trusted (the
      run logs' rule, :class:`~robot_msgs.runs.logs.SignalLog`: they copy it);
    - anything else (a writable array on the way, memory of another owner): not.

    WHY trusted in messages: messages built from other messages' arrays (a trajectory's
    rows, an error series' stamps) would otherwise copy them again; at 10^7 poses each
    copy of a trajectory is 0.5 GB. WHY not in the logs: copying a 10^6-row log's arrays
    costs 17 to 25 ms (timing's four; a signal log's, 6 channels) of its 1.1 and 2.2 s
    CPU read (measured), and no log's arrays are shared into another's.
    """
    view: Any = arr
    while isinstance(view, np.ndarray):
        if view.flags.writeable:
            return False
        if view.base is None:
            return owned
        view = view.base
    if isinstance(view, memoryview) and view.readonly:
        view = view.obj
    return isinstance(view, bytes)


# --------------------------------------------------------------------------- arrays in JSON

_ARRAY_KEYS = frozenset({"dtype", "shape", "data"})


def array_to_json(value: np.ndarray[Any, Any]) -> dict[str, Any]:
    """Return an array as ``{"dtype", "shape", "data"}``, data flat and row-major.

    Infinities become the strings ``"Infinity"``/``"-Infinity"`` (:data:`NON_FINITE`),
    NaN stays a float (the JSON encoder writes ``null``). Written in C
    (``robot_msgs.msg._json_arrays``, its source says why) where the module is built, the
    array C-contiguous and its dtype one the C writes; else from NumPy's lists. A subclass
    is written from its lists: the C sees its buffer alone (a masked array's hidden values).
    """
    if type(value) is not np.ndarray:
        return _to_lists(value)
    written = _unpack(value, dtype_name(value.dtype))
    return _to_lists(value) if written is None else written


def _to_lists(value: np.ndarray[Any, Any]) -> dict[str, Any]:
    """:func:`array_to_json` from NumPy's lists, in Python."""
    data = value.tolist() if value.ndim == 1 else value.ravel().tolist()
    if value.dtype.kind == "f" and data:
        infinite = (
            not _INFINITIES.isdisjoint(data) if value.size < _SMALL else np.isinf(value).any()
        )
        if infinite:
            for i, x in enumerate(data):
                if x in _INFINITIES:
                    data[i] = "Infinity" if x > 0 else "-Infinity"
    return {"dtype": dtype_name(value.dtype), "shape": value.shape, "data": data}


_INFINITIES = frozenset({math.inf, -math.inf})
#: Below this many values a set test of the list is faster than NumPy's (measured: a call
#: to ``np.isinf`` costs what hashing some thousands of floats does).
_SMALL = 4096


@functools.cache
def dtype_name(dtype: np.dtype[Any]) -> str:
    """Return ``str(dtype)`` (``"float64"``), cached: NumPy computes it in Python each time."""
    return str(dtype)


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
    if dtype is None:
        return _from_lists(value, path, None)
    return array_reader(dtype)(value, path)


@functools.cache
def array_reader(dtype: np.dtype[Any]) -> Callable[[Any, str], np.ndarray[Any, Any]]:
    """Return :func:`array_from_json` for ``dtype`` (made once per dtype): ``read(value, path)``.

    The form :func:`array_to_json` writes is packed in C (``robot_msgs.msg._json_arrays``,
    its source says why) into bytes that the read-only array is made over; anything else,
    or a build without the C module, is read from the lists, which names every flaw.
    """
    name = dtype_name(dtype)
    code = _KIND_CODES.get((dtype.kind, dtype.itemsize), "") if dtype.isnative else ""
    frombuffer, ndarray, pack = np.frombuffer, np.ndarray, _pack

    def read(value: Any, path: str) -> np.ndarray[Any, Any]:
        packed = pack(value, name, code) if code else None
        if packed is None:
            return _from_lists(value, path, dtype)
        shape = value["shape"]  # read-only arrays over bytes no one can write, their base
        if len(shape) == 1:  # the bytes (not a view's), so the check keeps them at once
            return frombuffer(packed, dtype)
        arr: np.ndarray[Any, Any] = ndarray(shape, dtype, packed)
        return arr

    return read


def _from_lists(value: Any, path: str, dtype: np.dtype[Any] | None) -> np.ndarray[Any, Any]:
    """:func:`array_from_json` from the dict's lists, in Python."""
    if type(value) is dict and dtype is not None and len(value) == 3:
        shape, data = value.get("shape"), value.get("data")
        if (  # the common case, as array_to_json writes it: the checks below in short
            type(shape) is list
            and type(data) is list
            and value.get("dtype") == dtype_name(dtype)
            and (_size(shape) if len(shape) != 1 else shape[0] if type(shape[0]) is int else -1)
            == len(data)
        ):
            arr = _values_from_json(dtype, data, path)
            arr.setflags(write=False)  # new and ours: the message keeps it without a copy
            if len(shape) == 1:
                return arr
            try:
                return arr.reshape(shape)
            except ValueError:  # an empty shape NumPy cannot hold: the checks below name it
                pass
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
    if not _holdable(shape, dtype.itemsize):
        raise field_error(expected=_HOLDABLE, value=list(shape), path=f"{path}.shape")
    data = value["data"]
    if not isinstance(data, list | tuple) or len(data) != math.prod(shape):
        expected = f"a flat list of {math.prod(shape)} values (shape {list(shape)})"
        raise field_error(expected=expected, value=data, path=f"{path}.data")
    arr = _values_from_json(dtype, data, path)
    arr.setflags(write=False)  # new and ours: the message keeps it (and a view) without a copy
    return arr if arr.shape == tuple(shape) else arr.reshape(shape)


#: The struct codes of the dtypes :func:`_pack` writes, by (kind, itemsize).
_KIND_CODES = {
    ("f", 8): "d",
    ("f", 4): "f",
    ("i", 1): "b",
    ("u", 1): "B",
    ("i", 2): "h",
    ("u", 2): "H",
    ("i", 4): "i",
    ("u", 4): "I",
    ("i", 8): "q",
    ("u", 8): "Q",
    ("b", 1): "?",
}


def _pack_in_python(value: Any, dtype_name: str, code: str) -> None:  # noqa: ARG001
    """Stand in for the C ``pack`` when it is not built: never packs (the lists decide)."""
    return


def _unpack_in_python(value: Any, dtype_name: str) -> None:  # noqa: ARG001
    """Stand in for the C ``unpack`` when it is not built: never writes (Python does)."""
    return


try:  # WHY in C, measured: see its source, robot_msgs/msg/_json_arrays.c
    from robot_msgs.msg._json_arrays import (  # type: ignore[import-not-found]
        pack as _pack,
    )
    from robot_msgs.msg._json_arrays import (
        unpack as _unpack,
    )
except ImportError:  # built without a C compiler
    _pack, _unpack = _pack_in_python, _unpack_in_python


def _size(shape: list[Any]) -> int:
    """Return the number of values of ``shape`` if it holds sizes (plain ints >= 0), else -1.

    -1 too beyond :data:`_MAX_AXES` sizes, before any product: ``decode_json`` of a shape
    of 10^6 twos took 95 s to multiply it out (each product longer than the last).
    """
    if len(shape) > _MAX_AXES:
        return -1
    size = 1
    for d in shape:
        if type(d) is not int or d < 0:
            return -1
        size *= d
    return size


#: The most axes of a NumPy array (``NPY_MAXDIMS``, NumPy 2) and the most bytes it spans.
_MAX_AXES, _MAX_BYTES = 64, int(np.iinfo(np.intp).max)
_HOLDABLE = (
    f"a shape NumPy can hold (at most {_MAX_AXES} sizes; those > 0 times the item size at most "
    f"{_MAX_BYTES} bytes)"
)


def _holdable(shape: list[int] | tuple[int, ...], itemsize: int) -> bool:
    """Whether NumPy makes an array of ``shape`` (sizes >= 0) with items of ``itemsize`` bytes.

    At most :data:`_MAX_AXES` sizes, and the bytes of the sizes > 0 within ``intp``:
    NumPy checks those even when a zero makes the array empty (``(0, 2**62, 2**62)`` is
    "array is too big", a ``ValueError`` that escaped the readers). The product stops at
    the first overflow, so a long shape costs no long multiplication.
    """
    if len(shape) > _MAX_AXES:
        return False
    nbytes = max(itemsize, 1)
    for d in shape:
        if d:
            nbytes *= d
            if nbytes > _MAX_BYTES:
                return False
    return True


#: The largest float32; a Python float of at most this size is a finite float32.
_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _values_from_json(
    dtype: np.dtype[Any], data: list[Any] | tuple[Any, ...], path: str
) -> np.ndarray[Any, Any]:
    """Return an array dict's flat values as a new 1-D array of ``dtype``, every value kept.

    ``path``: the array's (errors name ``path.data[i]``).

    WHY each road (:func:`array_from_json` of small arrays against the one before these
    roads, µs, min of 7 x 20000 alternated, a 2-core shared machine): Python ints are
    handed to NumPy whole, whose ``OverflowError`` (NumPy 2, NEP 50) sends a value that
    does not fit to the per-item loop that names it (3 uint32: 5.12 -> 1.11; 100 uint8:
    8.32 -> 3.73); float32 values none of which is finite beyond ``FLT_MAX`` are cast
    without the overflow guard (4 values: 3.44 -> 1.69), infinity strings replaced in
    one list pass (4 float32 with an ``"Infinity"``: 6.91 -> 2.76). The result, and the
    view :func:`array_from_json` reshapes it into, are read-only, so the construction
    check keeps them instead of copying again.
    """
    kinds, kind = set(map(type, data)), dtype.kind
    if kind == "f":
        if not kinds <= _JUST_FLOAT:
            data = _floats_from_json(data, f"{path}.data")
        if dtype == _FLOAT64:
            return np.array(data, dtype=dtype)  # the common case: floats as they were written
        if dtype == _FLOAT32 and len(data) < _SMALL and _no_float32_overflow(data):
            return np.array(data, dtype=dtype)  # rounded to the nearest float32
        wide = np.asarray(data, dtype=np.float64)
        arr = _as_array(dtype, dtype_name(dtype), wide, f"{path}.data")
        return arr.astype(dtype, copy=False)  # new either way: made here from the list
    if kind in "iu" and kinds <= _JUST_INT:
        try:
            return np.array(data, dtype=dtype)
        except OverflowError:  # raises, naming the first value out of range
            return _ints(dtype, data, f"{path}.data")
    if kind == "b" and kinds <= _JUST_BOOL:
        return np.array(data, dtype=dtype)
    raise field_error(expected=f"values that fit {dtype}", value=data, path=f"{path}.data")


_FLOAT64, _FLOAT32 = np.dtype(np.float64), np.dtype(np.float32)
_JUST_FLOAT, _JUST_INT, _JUST_BOOL = frozenset({float}), frozenset({int}), frozenset({bool})


def _no_float32_overflow(data: list[float] | tuple[float, ...]) -> bool:
    """Whether no value is finite and beyond ``FLT_MAX`` (NaN and the infinities cast as is)."""
    if max(map(abs, data), default=0.0) <= _FLOAT32_MAX:  # the common case, one C loop
        return True  # (a NaN first makes max NaN: the loop below decides)
    return not any(_FLOAT32_MAX < a < math.inf for a in map(abs, data))


#: A float array's JSON values that are not numbers, and the floats they stand for.
_JSON_FLOATS: dict[str | None, float] = {None: math.nan, "NaN": math.nan}
_JSON_FLOATS.update(NON_FINITE)


def _floats_from_json(data: list[Any] | tuple[Any, ...], path: str) -> Any:
    """Read a float array's JSON values: numbers, ``null``/``"NaN"``, the infinity strings."""
    with contextlib.suppress(KeyError, TypeError):  # an int, or a value to name: the loop
        return [v if type(v) is float else _JSON_FLOATS[v] for v in data]
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
