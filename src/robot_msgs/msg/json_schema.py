r"""JSON Schema (draft 2020-12) of every message type's JSON form, from msgspec.

:func:`json_schema` is ``msgspec.json.schema`` of the type (which carries every
``Literal`` and ``Meta`` constraint declared on the fields) with what msgspec cannot know
filled in from the same field specs the decoder uses (:func:`robot_msgs.msg.field_schema`):

- an array field is the object ``{"dtype", "shape", "data"}`` with its dtype, the shape
  its declared dimensions allow (fixed sizes exact; a fixed matrix may also come flat,
  as ROS writes it) and the values its dtype holds (an ``int8`` array's items in
  ``-128..127``, a ``float32`` array's within the float32 range);
- a float takes ``null``, ``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` (strict JSON's
  non-finite floats, :mod:`robot_msgs.msg`), a bounded one (``Meta(gt=0)``) only those
  within its bounds, as the decoder; a ``float32`` is bounded by the float32
  range and an ``int`` by its ROS primitive's;
- a string (a field, an item, a mapping's key or value) matches :data:`TEXT_PATTERN`:
  no lone surrogate, which JSON text can escape (``"\ud800"``) but UTF-8 cannot encode,
  so the decoder refuses it (:func:`robot_msgs.msg.fields.encodable`);
- ``"_type"`` may be left out (the decoder takes the type asked for) and may also be
  the type's ROS 2 name.

What no JSON Schema can say is left to the decoder and named in its errors: a named
dimension shared by several arrays (``N`` of ``stamps_s`` and ``positions_xyz``), a data
list as long as its shape, and each type's cross-field rules (``Image.data`` holds
``step * height`` bytes). One divergence is known and kept: JSON Schema's ``integer``
is "any number with a zero fractional part" (draft 2020-12 validation, 6.1.1), so the
schema takes ``1.0`` in an ``int`` field or an integer array, which the decoder refuses
(msgspec's, strict). No keyword refuses ``1.0`` and takes ``1``, and msgspec's
``strict=False``, which would take ``1.0``, takes ``"1"`` too, which the schema refuses;
``tests/msg/test_json_schema.py`` states it. ``robot-msgs schema TYPE`` prints the schema.

Examples
--------
>>> from robot_msgs.geometry import Point
>>> schema = json_schema(Point)
>>> schema["$defs"]["Point"]["properties"]["x"]["anyOf"]
[{'type': 'number'}, {'type': 'null'}, {'enum': ['NaN', 'Infinity', '-Infinity']}]
>>> schema["$defs"]["Point"]["properties"]["_type"]
{'enum': ['geometry/Point', 'geometry_msgs/msg/Point', 'geometry_msgs/Point']}
"""

from __future__ import annotations

import math
import typing
from typing import TYPE_CHECKING, Any

import msgspec
import numpy as np

from robot_msgs.msg.arrays import NON_FINITE
from robot_msgs.msg.base import declared_types, field_schema
from robot_msgs.msg.fields import FINITE_KEY
from robot_msgs.msg.json import ros_names
from robot_msgs.msg.primitives import MissingFloat

if TYPE_CHECKING:
    from robot_msgs.msg.base import Msg
    from robot_msgs.msg.fields import FieldSpec

__all__ = ["TEXT_PATTERN", "json_schema"]

#: A string with no lone surrogate (ECMA-262, as JSON Schema's ``pattern``). In the
#: ``u`` mode JSON Schema asks for, as in Python, a surrogate pair is one code point that
#: the first branch takes; the second takes the pair where a pattern reads UTF-16 units.
TEXT_PATTERN = r"^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$"
_NON_FINITE = {"enum": list(NON_FINITE)}
#: The largest magnitude that rounds to a finite float32 (FLT_MAX and half an ulp).
_FLOAT32_LIMIT = float(np.finfo(np.float32).max) * (1 + 2.0**-25)


def _float(*, float32: bool = False) -> dict[str, Any]:
    number: dict[str, Any] = {"type": "number"}
    if float32:
        number |= {"exclusiveMinimum": -_FLOAT32_LIMIT, "exclusiveMaximum": _FLOAT32_LIMIT}
    return {"anyOf": [number, {"type": "null"}, _NON_FINITE]}


def _hook(kind: Any) -> dict[str, Any]:
    if kind is MissingFloat:  # a float: its nulls and spellings put in as for every float
        return {"type": "number"}
    if kind is np.ndarray or typing.get_origin(kind) is np.ndarray:
        return {"type": "object"}  # replaced by the field's own array schema below
    msg = f"Expected a message field type, got {kind!r}"
    raise NotImplementedError(msg)  # msgspec's hook protocol: "a type I do not handle"


def _items(dtype: np.dtype[Any]) -> dict[str, Any]:
    """Return the JSON Schema of one value of an array of ``dtype``."""
    if dtype.kind == "f":
        return _float(float32=dtype == np.float32)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return {"type": "integer", "minimum": int(info.min), "maximum": int(info.max)}
    if dtype.kind == "b":
        return {"type": "boolean"}
    msg = f"Expected a numeric array dtype, got {dtype}"  # pragma: no cover - none declared
    raise TypeError(msg)


def _sizes(dims: tuple[int | str, ...]) -> dict[str, Any]:
    items = [
        {"const": d} if isinstance(d, int) else {"type": "integer", "minimum": 0} for d in dims
    ]
    return {"type": "array", "prefixItems": items, "minItems": len(dims), "maxItems": len(dims)}


def _array(spec: FieldSpec) -> dict[str, Any]:
    """Return the JSON Schema of an array field: its dtype, the shapes it takes, its values."""
    dtype = typing.cast("np.dtype[Any]", spec.dtype)  # set for an array (compile_annotation)
    dims = spec.shape.dims if spec.shape is not None else None
    data: dict[str, Any] = {"type": "array", "items": _items(dtype)}
    if dims is None:
        shape: dict[str, Any] = {"type": "array", "items": {"type": "integer", "minimum": 0}}
    else:
        shapes = [_sizes(dims)]
        fixed = all(isinstance(d, int) for d in dims)
        if fixed:
            size = math.prod(d for d in dims if isinstance(d, int))
            data |= {"minItems": size, "maxItems": size}
        if len(dims) > 1:
            # ROS's flat layout of a fixed matrix; an empty array of a variable one, flat
            shapes.append(_sizes((size,)) if fixed else _sizes((0,)))
        shape = shapes[0] if len(shapes) == 1 else {"anyOf": shapes}
    return {
        "type": "object",
        "description": f"An array {spec.label}: dtype, shape and the values flat, row-major.",
        "properties": {"dtype": {"const": str(dtype)}, "shape": shape, "data": data},
        "required": ["dtype", "shape", "data"],
        "additionalProperties": False,
    }


#: JSON Schema's bounds of a number, as msgspec writes a ``Meta``'s ``ge``, ``lt``...
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def _within(value: float, bounds: dict[str, Any]) -> bool:
    """Whether ``value`` keeps ``bounds`` (JSON Schema's keywords), as msgspec compares it."""
    tests = {
        "minimum": value >= bounds.get("minimum", -math.inf),
        "maximum": value <= bounds.get("maximum", math.inf),
        "exclusiveMinimum": value > bounds.get("exclusiveMinimum", -math.inf),
        "exclusiveMaximum": value < bounds.get("exclusiveMaximum", math.inf),
    }
    return all(tests[name] for name in bounds)


def _bounded_float(bounds: dict[str, Any]) -> dict[str, Any]:
    """Return a float bounded by ``bounds``: the spellings of the non-finite floats it keeps.

    WHY: a bound applies to numbers only, so ``{"anyOf": [...], "exclusiveMinimum": 0}``
    took ``null``, ``"NaN"`` and ``"-Infinity"``, which msgspec's decoder refuses (NaN
    fails every comparison; ``-inf > 0`` is false). ``"Infinity"`` stays where no upper
    bound refuses it, ``"-Infinity"`` where no lower one does.
    """
    spellings = [
        text for text, value in (("Infinity", math.inf), ("-Infinity", -math.inf))
        if _within(value, bounds)
    ]  # fmt: skip
    options: list[dict[str, Any]] = [{"type": "number", **bounds}]
    if spellings:
        options.append({"enum": spellings})
    return {"anyOf": options} if len(options) > 1 else options[0]


def _json_leaves(node: Any, *, finite: bool = False) -> Any:
    """Let a number msgspec wrote take non-finite floats' spellings, a string no lone surrogate.

    ``finite``: within a field declared :data:`~robot_msgs.msg.fields.FINITE`, whose
    numbers take no spelling of a non-finite float.
    """
    if isinstance(node, dict):
        finite = finite or bool(node.get(FINITE_KEY))
        node = {k: v for k, v in node.items() if k != FINITE_KEY}
        if node.get("type") == "number":
            if finite:
                return node
            rest = {k: v for k, v in node.items() if k != "type" and k not in _BOUNDS}
            bounds = {k: v for k, v in node.items() if k in _BOUNDS}
            return {**(_bounded_float(bounds) if bounds else _float()), **rest}
        if node.get("type") == "string":
            return {**node, "pattern": TEXT_PATTERN}
        return {k: _json_leaves(v, finite=finite) for k, v in node.items()}
    if isinstance(node, list):
        return [_json_leaves(v, finite=finite) for v in node]
    return node


def _field(spec: FieldSpec, node: dict[str, Any]) -> dict[str, Any]:
    """One field's schema: msgspec's, with our arrays, float32 and int bounds put in."""
    kind, inner = spec.kind, spec.inner
    default = {k: v for k, v in node.items() if k == "default"}
    if kind == "array":
        return {**_array(spec), **default}
    if kind == "float32":
        return {**_float(float32=True), **default}
    if kind == "int" and spec.bounds is not None and node.get("type") == "integer":
        low, high = spec.bounds
        return {**node, "minimum": low, "maximum": high}
    if kind == "optional" and inner is not None and "anyOf" in node:
        options = [o if o == {"type": "null"} else _field(inner, o) for o in node["anyOf"]]
        return {**node, "anyOf": options}
    if kind == "tuple" and inner is not None and "items" in node:
        rest = {k: v for k, v in node.items() if k != FINITE_KEY}  # FINITE: said of each item
        items = {**node["items"], FINITE_KEY: True} if node.get(FINITE_KEY) else node["items"]
        return {**rest, "items": _field(inner, items)}
    if kind == "mapping" and inner is not None and "additionalProperties" in node:
        values = _field(inner, node["additionalProperties"])
        return {**node, "propertyNames": {"pattern": TEXT_PATTERN}, "additionalProperties": values}
    out: dict[str, Any] = _json_leaves(node)
    return out


def json_schema(cls: type[Msg]) -> dict[str, Any]:
    """Return the JSON Schema of ``cls``'s JSON form (and of every type it nests).

    Raises
    ------
    TypeError
        A field type msgspec cannot describe (none of the package's).
    """
    schema: dict[str, Any] = msgspec.json.schema(cls, schema_hook=_hook)
    # The types declared so far: every type ``cls`` holds is, as msgspec resolved its
    # fields. WHY not all (registry.registered_types): importing every family cost
    # ``robot-msgs schema geometry/Pose`` ~130 ms of its 0.4 s.
    by_name = {t.__name__: t for _, t in sorted(declared_types().items())}
    by_name[cls.__name__] = cls
    for name, definition in schema.get("$defs", {}).items():
        known = by_name.get(name)
        properties = definition.get("properties", {})
        if known is None or "_type" not in properties:
            continue
        specs = field_schema(known)
        for field, spec in specs.items():
            properties[field] = _field(spec, properties[field])
        tag = properties["_type"]
        tag["enum"] = [*tag["enum"], *ros_names(known)]
        definition["required"] = [r for r in definition.get("required", []) if r != "_type"]
        if not definition["required"]:
            del definition["required"]
    return schema
