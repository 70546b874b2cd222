"""The check a message runs on construction: a generated fast test, then the full one.

:meth:`robot_msgs.msg.Msg.__post_init__` runs, per class, a function generated once from
the field specs: it reads each field and tests, in one line of straight Python, whether
the value is already what the field holds (``type(v) is float``, an ``int`` inside its
bounds, an ASCII ``str``, a nested message of the exact class, a read-only array of the
declared dtype and shape whose named dimensions agree). If every field passes, only the
type's cross-field rules remain; the first field that does not sends the whole message
to :func:`check_fields`, which checks each field with msgspec
(:func:`robot_msgs.msg_fields.check_value`), normalises it and names what it refuses.

WHY generated: the loop over a table of field tests cost 3-10x rosbags' own message
construction for small types (``Point``, ``Time``); reading a bag builds millions of
them. The fast test keeps no value the full check would change, so both give the same
message (a property test states it over every registered type).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

import numpy as np
from msgspec.structs import force_setattr

from robot_msgs.msg_fields import FrozenMap, check_value, immutable

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.msg_fields import FieldSpec

__all__ = ["check_fields", "compile_check"]

_pack32, _unpack32 = struct.Struct("<f").pack, struct.Struct("<f").unpack


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


def _test(spec: FieldSpec, v: str, names: dict[str, Any], dims: dict[str, str]) -> str | None:
    """Return the Python test that is true when value ``v`` is kept as it is, else None."""
    kind = spec.kind
    if spec.constrained:
        return None
    if kind in {"float", "bool"}:
        return f"type({v}) is {kind}"
    if kind == "int":
        assert spec.bounds is not None
        low, high = spec.bounds
        return f"type({v}) is int and {low} <= {v} <= {high}"
    if kind == "str":
        return f"type({v}) is str and {v}.isascii()"
    if kind == "float32":
        return f"type({v}) is float and _is_float32({v})"
    if kind == "literal" and spec.choices and all(type(c) is str for c in spec.choices):
        key = f"_choices{len(names)}"
        names[key] = frozenset(spec.choices)
        return f"type({v}) is str and {v} in {key}"
    if kind == "msg":
        key = f"_type{len(names)}"
        names[key] = spec.msg_type
        return f"type({v}) is {key}"
    if kind == "any":
        return "True"
    if kind == "optional" and spec.inner is not None:
        inner = _test(spec.inner, v, names, dims)
        return None if inner is None else f"({v} is None or ({inner}))"
    if kind == "tuple" and spec.inner is not None:
        inner = _test(spec.inner, "x", names, {})
        if inner is None or spec.inner.kind in {"array", "optional"}:
            return None
        return f"type({v}) is tuple and all([{inner} for x in {v}])"
    if kind == "array":
        return _array_test(spec, v, names, dims)
    return None


def _array_test(spec: FieldSpec, v: str, names: dict[str, Any], dims: dict[str, str]) -> str:
    """Return the test of an array: its type, dtype, fixed sizes, named sizes, read-only."""
    key = f"_dtype{len(names)}"
    names[key] = spec.dtype
    parts = [f"type({v}) is _ndarray", f"{v}.dtype is {key}"]
    if spec.shape is not None:
        parts.append(f"{v}.ndim == {len(spec.shape.dims)}")
        for axis, dim in enumerate(spec.shape.dims):
            if isinstance(dim, int):
                parts.append(f"{v}.shape[{axis}] == {dim}")
            elif dim in dims:
                parts.append(f"{v}.shape[{axis}] == {dims[dim]}")
            else:
                dims[dim] = f"{v}.shape[{axis}]"
    parts.append(f"_immutable({v})")
    return " and ".join(parts)


def compile_check(
    cls: type[Any], specs: dict[str, FieldSpec], *, validate: bool
) -> Callable[[Any], None]:
    """Generate ``check(msg)``: the fast test of every field, else :func:`check_fields`.

    ``validate``: end with the type's ``_validate`` (its cross-field rules).
    """
    names: dict[str, Any] = {
        "_ndarray": np.ndarray,
        "_immutable": immutable,
        "_is_float32": _is_float32,
        "_frozenmap": FrozenMap,
        "_full": check_fields,
        "_specs": specs,
    }
    dims: dict[str, str] = {}
    lines = ["def check(self):"]
    for i, (name, spec) in enumerate(specs.items()):
        test = _test(spec, f"v{i}", names, dims)
        lines.append(f"    v{i} = self.{name}")
        if test is None:
            lines.append("    return _full_then(self)")
            break
        lines.append(f"    if not ({test}):")
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
