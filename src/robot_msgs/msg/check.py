"""The check a message runs on construction: a generated fast test, then the full one.

:meth:`robot_msgs.msg.Msg.__post_init__` runs, per class, a function generated once from
the field specs: it reads each field and tests, in one line of straight Python, whether
the value is already what the field holds (``type(v) is float``, an ``int`` or a float
inside its bounds, a ``str`` UTF-8 can encode, a nested message of the exact class, a
read-only array of the declared dtype and shape whose named dimensions agree). If every
field passes, only the type's cross-field rules remain; the first field that does not
sends the whole message to :func:`check_fields`, which checks each field with msgspec
(:func:`robot_msgs.msg.fields.check_value`), normalises it and names what it refuses.

WHY generated: the loop over a table of field tests cost 3-10x rosbags' own message
construction for small types (``Point``, ``Time``); reading a bag builds millions of
them. The fast test keeps no value the full check would change, so both give the same
message (a property test states it over every registered type).

:data:`COMPILED` holds the optional compiled tests of ``_checks.c`` that the types' own
rules use on their arrays (a trajectory's rows, a rotation, a covariance, finiteness):
each answers as the NumPy or Python-float road it stands in for (property tests in
``tests/msg/test_checks_compiled.py``), or returns None for an array it cannot read.
"""

from __future__ import annotations

import dataclasses
import struct
import typing
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np
from msgspec import Meta
from msgspec.structs import force_setattr

from robot_msgs.msg.arrays import NON_FINITE
from robot_msgs.msg.fields import (
    SCALAR_INT_BOUNDS,
    FrozenMap,
    check_value,
    encodable,
    immutable,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.msg.fields import FieldSpec

__all__ = ["COMPILED", "all_finite", "check_fields", "compile_check", "deferred_check"]

R = TypeVar("R")


class _Compiled(Protocol):
    """``robot_msgs.msg._checks`` (``_checks.c``, which says why), typed here once."""

    def pose_rows_ok(
        self, stamps: object, positions: object, quaternions: object, limit: float, tol: float, /
    ) -> bool | None:
        """Whether a trajectory's rows are certainly valid (None: arrays it cannot read)."""

    def plain_scalars(self, mapping: object, /) -> bool:
        """Whether ``mapping`` is a dict of ASCII str keys to float, int, bool or None."""

    def frozen_as(
        self, array: object, dtype: np.dtype[Any], shape: tuple[int, ...], /
    ) -> np.ndarray[Any, Any] | None:
        """:meth:`frozen` of an exact ndarray of ``dtype`` and ``shape`` (-1: any), else None."""

    def frozen(self, array: np.ndarray[Any, Any], /) -> np.ndarray[Any, Any]:
        """``array`` if no one can write to it (``immutable``), else a read-only copy."""

    def increasing(self, values: object, /) -> bool | None:
        """Whether each value exceeds the one before (None: not float64 or int64)."""

    def at_least(self, values: object, low: float, /) -> bool | None:
        """Whether every value is ``>= low`` (None: not a C-contiguous float64 array)."""

    def all_finite(self, values: object, /) -> bool | None:
        """Whether every value is finite (None: not a C-contiguous float64 array)."""

    def symmetric_ok(self, matrix: object, n: int, /) -> bool | None:
        """Extrinsic's covariance test of an ``n x n`` matrix (None: it cannot read it)."""

    def rotation_ok(self, r: object, tol: float, /) -> bool | None:
        """``is_rotation_matrix``'s test of nine float64 values (None: it cannot read them)."""


#: The compiled fast tests, or None where the package was built without a C compiler
#: (the checks then run on NumPy and Python floats alone, with the same answers).
COMPILED: _Compiled | None
try:
    import robot_msgs.msg._checks as _module  # type: ignore[import-not-found]

    COMPILED = _module
except ImportError:  # pragma: no cover - built without a C compiler
    COMPILED = None


def all_finite(values: np.ndarray[Any, Any]) -> bool:
    """Whether every value of a float array is finite: in C where built, else NumPy.

    WHY: NumPy's ``isfinite(...).all()`` costs about 1 µs whatever the size, Python's
    ``math.isfinite`` over ``tolist()`` 0.2 µs for three values; the compiled test 0.07.

    Examples
    --------
    >>> all_finite(np.array([0.0, 1e308])), all_finite(np.array([0.0, np.nan]))
    (True, False)
    """
    if COMPILED is not None:
        compiled = COMPILED.all_finite(values)
        if compiled is not None:
            return compiled
    return bool(np.isfinite(values).all())


_pack32, _unpack32 = struct.Struct("<f").pack, struct.Struct("<f").unpack
#: The largest float32 (``struct`` refuses to pack a float beyond it).
_FLOAT32_MAX = _unpack32(b"\xff\xff\x7f\x7f")[0]


def _is_float32(value: float) -> bool:
    """Whether ``value`` is exactly a float32 (NaN and the infinities are)."""
    try:
        return bool(_unpack32(_pack32(value))[0] == value or value != value)  # noqa: PLR0124
    except OverflowError:
        return False


def check_fields(msg: Any, specs: dict[str, FieldSpec]) -> None:
    """Check and normalise every field of ``msg`` in place (the full check), or raise."""
    name_of = type(msg).__name__
    dims: dict[str, tuple[int, str]] = {}
    for name, spec in specs.items():
        value = getattr(msg, name)
        checked = check_value(spec, value, f"{name_of}.{name}", dims)
        if checked is not value:
            force_setattr(msg, name, checked)


#: The types of a settings scalar kept as it is whatever its value (an int: if short).
_SCALAR_TYPES = frozenset({float, bool, type(None)})


def _scalar_ok(value: object) -> bool:
    """Whether a settings scalar is kept as it is (a text spelling a float is not)."""
    kind = type(value)
    if kind is float or kind is bool or value is None:
        return True
    if kind is int:  # 4300 characters at most: to_json and repr could not write a longer one
        return SCALAR_INT_BOUNDS[0] < value < SCALAR_INT_BOUNDS[1]  # type: ignore[operator]
    return kind is str and encodable(value) and value not in NON_FINITE  # type: ignore[arg-type]


def _value_ok(value: object) -> bool:
    """Whether a settings value (a scalar or a tuple of them) is kept as it is."""
    if type(value) is tuple:
        return all(item is not None and _scalar_ok(item) for item in value)
    return _scalar_ok(value)


#: The one empty mapping every message's empty mapping field holds (immutable: shared).
#: WHY: a FrozenMap costs 0.3 µs; the catalog's Ranking held three empty ones, and its
#: JSON round trip was 1.03x json's.
_EMPTY_MAP: FrozenMap[Any] = FrozenMap()


def _frozen(value: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Return a read-only copy of a writable array that is otherwise what the field holds."""
    out: np.ndarray[Any, Any] = value.copy()
    out.setflags(write=False)
    return out


def _key(names: dict[str, Any], prefix: str, value: object) -> str:
    key = f"_{prefix}{len(names)}"
    names[key] = value
    return key


def _test(spec: FieldSpec, v: str, names: dict[str, Any], dims: dict[str, str]) -> str | None:
    """Return the Python test that is true when value ``v`` is kept as it is, else None."""
    kind = spec.kind
    if spec.constrained:
        return _sized(spec, v, names, dims)
    if kind in {"float", "bool"}:
        return f"type({v}) is {kind}"
    if kind == "int":
        low, high = typing.cast("tuple[int, int]", spec.bounds)  # set for an int
        return f"type({v}) is int and {low} <= {v} <= {high}"
    if kind == "str":
        return f"type({v}) is str and ({v}.isascii() or _encodable({v}))"
    if kind == "float32":
        # _is_float32 inline for a finite value (one call fewer a field; NaN and the
        # infinities, outside the bounds, go to it)
        inline = f"_unpack32(_pack32({v}))[0] == {v}"
        finite = f"(-_float32_max <= {v} <= _float32_max and {inline})"
        return f"type({v}) is float and ({finite} or _is_float32({v}))"
    if kind == "literal" and spec.choices and all(type(c) is str for c in spec.choices):
        return f"type({v}) is str and {v} in {_key(names, 'choices', frozenset(spec.choices))}"
    if kind == "msg":
        return f"type({v}) is {_key(names, 'type', spec.msg_type)}"
    if kind == "any":
        return "True"
    if kind in {"scalar", "value"}:  # _scalar_ok, inline: text must not spell a float
        text = f"{v} not in _non_finite and ({v}.isascii() or _encodable({v}))"
        short = f"_int_low < {v} < _int_high"
        scalar = (
            f"(type({v}) in _scalar_types or (type({v}) is int and {short}) "
            f"or (type({v}) is str and {text}))"
        )
        if kind == "scalar":
            return scalar
        return f"({scalar} or (type({v}) is tuple and _value_ok({v})))"
    if kind == "optional" and spec.inner is not None:
        bound = dict(dims)
        inner = _test(spec.inner, v, names, bound)
        if bound.keys() != dims.keys():  # a size later fields would read from a None: the full
            return None  # check, which binds it only when the array is given
        return None if inner is None else f"({v} is None or ({inner}))"
    if kind == "tuple" and spec.inner is not None:
        items = _items(spec.inner, names)
        return None if items is None else f"type({v}) is tuple and {items.format(v)}"
    if kind == "mapping" and spec.inner is not None:
        items = _entries(spec.inner, names)
        return (
            None
            if items is None
            else f"type({v}) is _frozenmap and {items.format(v, f'{v}._data')}"
        )
    if kind == "array":
        return _array_shape(spec, v, names, dims) + f" and _immutable({v})"
    return None


def _sized(spec: FieldSpec, v: str, names: dict[str, Any], dims: dict[str, str]) -> str | None:
    """Return the test of a constrained field, or None: the full check (msgspec) decides.

    Stated here: a float's bounds (``Meta(gt=0)``, as msgspec compares them, with the bound
    a float) and a sequence's length (``Meta(max_length=...)``). WHY: the settings
    messages bound most of their floats; with no fast test every construction, and so
    every decoding, ran the full check of every field: ``decode_json`` of the catalog's
    ``RunSettings`` took 70.5 µs, 25.2 µs with these tests (min of 9 runs; json's whole
    round trip of it, ``loads(dumps(d))``, 16 µs).
    """
    metas = [m for m in typing.get_args(spec.annotation)[1:] if isinstance(m, Meta)]
    if not metas or any(m.multiple_of is not None or m.pattern is not None for m in metas):
        return None
    if spec.kind == "float":
        if any(m.min_length is not None or m.max_length is not None for m in metas):
            return None
        bounds = [
            f"{v} {op} {float(getattr(m, key))!r}"
            for m in metas
            for key, op in (("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<="))
            if getattr(m, key) is not None
        ]
        return " and ".join([f"type({v}) is float", *bounds])
    if spec.kind != "tuple":
        return None
    if any(getattr(m, k) is not None for m in metas for k in ("gt", "ge", "lt", "le")):
        return None
    plain = dataclasses.replace(spec, constrained=False)
    test = _test(plain, v, names, dims)
    if test is None:
        return None
    low = max(m.min_length or 0 for m in metas)
    highs = [m.max_length for m in metas if m.max_length is not None]
    bound = f" and {low} <= len({v})" + (f" <= {min(highs)}" if highs else "")
    return test + bound


def _items(spec: FieldSpec, names: dict[str, Any]) -> str | None:
    """Return the test that every item ``x`` of a sequence ``{}`` is kept, or None."""
    inner = _test(spec, "x", names, {})
    if inner is None or spec.kind in {"array", "optional"}:
        return None
    # an empty sequence told first: a comprehension costs 0.15 µs even over none
    return f"(not {{0}} or all([{inner} for x in {{0}}]))"


def _entries(spec: FieldSpec, names: dict[str, Any]) -> str | None:
    """Return the test that every key and value ``x`` of a mapping ``{0}`` is kept, or None.

    ``{1}`` is its dict (the mapping itself, or a FrozenMap's ``_data``): a map of plain
    scalars is told in C where built (``plain_scalars``: 0.1 µs, the comprehension 0.4).
    """
    inner = _test(spec, "x", names, {})
    if inner is None or spec.kind in {"array", "optional"}:
        return None
    keys = "type(k) is str and (k.isascii() or _encodable(k))"
    plain = (
        "_plain_scalars({1}) or "
        if COMPILED is not None and spec.kind in {"scalar", "value"}
        else ""
    )
    return f"(not {{0}} or {plain}all([{keys} and ({inner}) for k, x in {{0}}.items()]))"


def _fix(
    spec: FieldSpec, v: str, names: dict[str, Any], dims: dict[str, str]
) -> tuple[str, str] | None:
    """Return a field's second chance: a test and the normalised value, on the fast road.

    What users hand over most: an ``int`` for a float, a list for a tuple, a dict for a
    mapping, a writable array (copied and made read-only). ``None``: the full check.
    """
    kind, inner = spec.kind, spec.inner
    if spec.constrained:
        return None
    if kind == "float":
        return (f"type({v}) is int and -(2**1023) < {v} < 2**1023", f"float({v})")
    if kind == "tuple" and inner is not None:
        items = _items(inner, names)
        return (
            None if items is None else (f"type({v}) is list and {items.format(v)}", f"tuple({v})")
        )
    if kind == "mapping" and inner is not None:
        items = _entries(inner, names)
        return (
            None
            if items is None
            else (
                f"type({v}) is dict and {items.format(v, v)}",
                f"(_frozenmap({v}) if {v} else _empty_map)",
            )
        )
    if kind == "array":
        return (_array_shape(spec, v, names, dict(dims)), f"_frozen({v})")
    if kind == "optional" and inner is not None:
        fixed = _fix(inner, v, names, dims)
        return None if fixed is None else (f"{v} is not None and ({fixed[0]})", fixed[1])
    return None


def _tuple_text(items: list[str]) -> str:
    """Python source of a tuple of ``items`` (``()`` for none: a 0-d array's shape)."""
    return "(" + "".join(f"{item}, " for item in items) + ")"


def _array_shape(spec: FieldSpec, v: str, names: dict[str, Any], dims: dict[str, str]) -> str:
    """Return the test of an array's type, dtype, fixed sizes and named sizes (binding new ones)."""
    parts = [f"type({v}) is _ndarray", f"{v}.dtype is {_key(names, 'dtype', spec.dtype)}"]
    if spec.shape is not None and all(isinstance(d, int) or d in dims for d in spec.shape.dims):
        # ndim and every size in one test (0.07 µs less for a (3, 3))
        sizes = [str(d) if isinstance(d, int) else dims[d] for d in spec.shape.dims]
        parts.append(f"{v}.shape == {_tuple_text(sizes)}")
    elif spec.shape is not None:
        parts.append(f"{v}.ndim == {len(spec.shape.dims)}")
        for axis, dim in enumerate(spec.shape.dims):
            if isinstance(dim, int):
                parts.append(f"{v}.shape[{axis}] == {dim}")
            elif dim in dims:
                parts.append(f"{v}.shape[{axis}] == {dims[dim]}")
            else:
                dims[dim] = f"{v}.shape[{axis}]"
    return " and ".join(parts)


def compile_check(
    cls: type[Any],
    specs: dict[str, FieldSpec],
    *,
    validate: bool,
    namespace: dict[str, Any] | None = None,
) -> Callable[[Any], None]:
    """Generate ``check(msg)``: the fast test of every field, else :func:`check_fields`.

    ``validate``: end with the type's ``_validate`` (its cross-field rules).
    ``namespace``: the globals to define it in (a fresh dict when ``None``); a function
    already made in that dict can then take the check's code (:func:`deferred_check`).
    """
    names: dict[str, Any] = {} if namespace is None else namespace
    names |= {
        "_ndarray": np.ndarray,
        "_immutable": immutable,
        "_encodable": encodable,
        "_is_float32": _is_float32,
        "_pack32": _pack32,
        "_unpack32": _unpack32,
        "_float32_max": _FLOAT32_MAX,
        "_scalar_ok": _scalar_ok,
        "_scalar_types": _SCALAR_TYPES,
        "_int_low": SCALAR_INT_BOUNDS[0],
        "_int_high": SCALAR_INT_BOUNDS[1],
        "_non_finite": NON_FINITE,
        "_value_ok": _value_ok,
        "_frozen": _frozen if COMPILED is None else COMPILED.frozen,
        "_frozen_as": None if COMPILED is None else COMPILED.frozen_as,
        "_plain_scalars": None if COMPILED is None else COMPILED.plain_scalars,
        "_frozenmap": FrozenMap,
        "_empty_map": _EMPTY_MAP,
        "_set": force_setattr,
        "_full": check_fields,
        "_specs": specs,
    }
    dims: dict[str, str] = {}
    lines = ["def check(self):"]
    for i, (name, spec) in enumerate(specs.items()):
        v = f"v{i}"
        lines.append(f"    {v} = self.{name}")
        named = [d for d in spec.shape.dims if not isinstance(d, int)] if spec.shape else []
        if (
            spec.kind == "array"
            and COMPILED is not None
            and spec.shape is not None
            and len(set(named)) == len(named)  # Shape("N", "N"): told in Python below
        ):
            # the type, dtype and shape test, immutable() and _frozen in one call, in C
            # (0.35 µs an array in Python; named sizes are given as bound or -1)
            sizes = [str(d) if isinstance(d, int) else dims.get(d, "-1") for d in spec.shape.dims]
            for axis, dim in enumerate(spec.shape.dims):
                if not isinstance(dim, int) and dim not in dims:
                    dims[dim] = f"{v}.shape[{axis}]"
            dtype = _key(names, "dtype", spec.dtype)
            lines.append(f"    w = _frozen_as({v}, {dtype}, {_tuple_text(sizes)})")
            lines.append("    if w is None:")
            lines.append("        return _full_then(self)")
            lines.append(f"    if w is not {v}:")
            lines.append(f"        _set(self, {name!r}, w)")
            continue
        if spec.kind == "array":  # the shape first, then a read-only copy if writable
            lines.append(f"    if not ({_array_shape(spec, v, names, dims)}):")
            lines.append("        return _full_then(self)")
            # _frozen written out, a writable array told before _immutable's walk: a
            # call and NumPy's keyword parsing cost 0.2 µs of 0.8 (a UUID's construction)
            lines.append(f"    if {v}.flags.writeable or not _immutable({v}):")
            lines.append(f"        {v} = {v}.copy()")
            lines.append(f"        {v}.setflags(False)")
            lines.append(f"        _set(self, {name!r}, {v})")
            continue
        fixed = _fix(spec, v, names, dims)
        test = _test(spec, v, names, dims)
        if test is None:
            lines.append("    return _full_then(self)")
            break
        lines.append(f"    if not ({test}):")
        if fixed is not None:
            lines.append(f"        if not ({fixed[0]}):")
            lines.append("            return _full_then(self)")
            lines.append(f"        {v} = {fixed[1]}")
            lines.append(f"        _set(self, {name!r}, {v})")
        else:
            lines.append("        return _full_then(self)")
    end = "    self._validate()" if validate else "    return None"
    lines.append(end)
    lines.append("def _full_then(self):")
    lines.append("    _full(self, _specs)")
    lines.append(end)
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<robot_msgs check {cls.__qualname__}>", "exec"), names)  # noqa: S102
    check: Callable[[Any], None] = names["check"]
    return check


def deferred_check(
    compile_now: Callable[[dict[str, Any]], Callable[[Any], R]],
) -> Callable[[Any], R]:
    r"""Return a construction check that is generated on its first call, then runs at full speed.

    ``compile_now(namespace)`` generates the real check into ``namespace``
    (:func:`compile_check` with ``namespace=``). The returned function, which msgspec
    holds as the class's ``__post_init__`` from the class's creation on (it reads the
    attribute once), takes the generated code on its first call: later calls run the
    generated check with no extra frame.

    WHY: generating every check at import, with its annotations resolved, was most of the
    package's own start-up, for types a command mostly never builds: ``robot-msgs ape``
    on fr1_xyz cost 146 ms of CPU beyond ``import numpy`` with 87 checks generated at
    import, 84 ms with this (``benchmarks/harness.paired``, 11 pairs, median).

    Examples
    --------
    >>> def make(namespace):
    ...     exec("def check(self):\n    return self * 2\n", namespace)
    ...     return namespace["check"]
    >>> check = deferred_check(make)
    >>> check(3), check(4), check.__code__.co_name
    (6, 8, 'check')
    """
    namespace: dict[str, Any] = {}

    def first_call(self: Any) -> Any:
        made = compile_now(namespace)  # defined in the same globals as ``check``
        check.__code__ = made.__code__  # the function msgspec holds runs it from now on
        return made(self)

    namespace["_first_call"] = first_call
    exec("def check(self):\n    return _first_call(self)\n", namespace)  # noqa: S102
    check: Callable[[Any], R] = namespace["check"]
    return check
