"""ROS ``.msg`` definitions of the package's own types, generated from their annotations.

Evaluation results (``compare/*``, and the settings and trajectories they embed) have no
ROS 2 equivalent; so that they can be recorded in bags as typed messages and read back,
each type without one gets the definition ``robot_msgs/msg/NAME`` made here from its
fields, registered in :func:`robot_msgs.ros.humble_typestore`. The rules, from the field
annotation:

=====================================  ================================================
robot_msgs field                       ROS field(s)
=====================================  ================================================
``float`` / ``int`` / ``bool`` / ``str``  ``float64`` / ``int64`` / ``bool`` / ``string``
``Int32``, ``Float32``, ...            the same primitive
another message                        its ROS 2 type, or its generated type, as
                                       ``pkg/Name`` (``robot_msgs/Signal``)
``X | None``                           ``X[<=1]`` (empty is ``None``)
``tuple[X, ...]``                      ``X[]``
``Mapping[str, X]``                    ``string[] NAME_keys`` and ``X[] NAME_values``
an array field                         ``DTYPE[] NAME`` (row-major) and ``uint32[] NAME_shape``
                                       (an empty shape is ``None`` for an optional array)
a scalar union (settings values)       ``string NAME_json``: the field's strict JSON
=====================================  ================================================

WHY JSON for the unions: ROS has no sum type; a settings value is ``str | float | int |
bool | None`` or a list of them, and the JSON text keeps which, as ``to_dict`` does.

Examples
--------
>>> from robot_msgs.compare import TrackingLoss
>>> print(definition(TrackingLoss), end="")
float64 start_s
float64 end_s
bool recovered
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import msgspec
import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.msg import field_json, field_schema
from robot_msgs.msg.arrays import field_error
from robot_msgs.msg.json import ros_names
from robot_msgs.msg.json_text import BOM, parse_error, refuse_repeated_keys

if TYPE_CHECKING:
    from collections.abc import Iterable

    from robot_msgs.msg import FieldSpec, Msg

__all__ = [
    "decode_generated",
    "definition",
    "encode_generated",
    "generated_name",
    "register_definitions",
]

_DIRECT = {
    "float": "float64",
    "int": "int64",
    "bool": "bool",
    "str": "string",
    "float32": "float32",
}


def generated_name(cls: type[Msg]) -> str:
    """Return ``robot_msgs/msg/NAME`` for a type without ROS 2 equivalent, else its ``ROS2``.

    Examples
    --------
    >>> from robot_msgs.compare import ErrorStats
    >>> generated_name(ErrorStats)
    'robot_msgs/msg/ErrorStats'
    """
    return ros_names(cls)[0]


def _base(spec: FieldSpec) -> str | None:
    """Return the ROS element type of a scalar or message spec, or ``None`` if it has none."""
    if spec.kind == "int":
        return spec.ros or "int64"
    if spec.kind == "literal" and spec.choices and all(type(c) is str for c in spec.choices):
        return "string"
    if spec.kind in _DIRECT:
        return _DIRECT[spec.kind]
    if spec.kind == "msg":  # spelt as .msg files and the bags' definitions spell it
        return ros_names(spec.msg_type)[1]
    return None


def _ros_fields(name: str, spec: FieldSpec) -> list[tuple[str, str]]:
    """ROS ``(type, name)`` lines of one field, by the module's table."""
    base = _base(spec)
    if base is not None:
        return [(base, name)]
    inner = spec.inner
    if spec.kind == "optional" and inner is not None:
        if inner.kind == "array":
            return _ros_fields(name, inner)
        inner_base = _base(inner)
        if inner_base is not None:
            return [(f"{inner_base}[<=1]", name)]
    if spec.kind == "tuple" and inner is not None and _base(inner) is not None:
        return [(f"{_base(inner)}[]", name)]
    if spec.kind == "mapping" and inner is not None and _base(inner) is not None:
        return [("string[]", f"{name}_keys"), (f"{_base(inner)}[]", f"{name}_values")]
    if spec.kind == "array":
        declared = cast("np.dtype[Any]", spec.dtype)  # set for an array (compile_annotation)
        dtype = declared.name if declared.name in ("int64", "float32", "uint8") else "float64"
        return [(f"{dtype}[]", name), ("uint32[]", f"{name}_shape")]
    return [("string", f"{name}_json")]


def definition(cls: type[Msg]) -> str:
    """Return the ``.msg`` text of a type without ROS 2 equivalent, one field a line."""
    lines = [
        f"{ros_type} {ros_field}\n"
        for name, spec in field_schema(cls).items()
        for ros_type, ros_field in _ros_fields(name, spec)
    ]
    return "".join(lines)


def register_definitions(store: Any, types: Iterable[type[Msg]]) -> None:
    """Register the generated definition of each type without ROS 2 equivalent, once."""
    typesys = __import__("rosbags.typesys", fromlist=["get_types_from_msg"])
    found: dict[str, Any] = {}
    for cls in types:
        name = generated_name(cls)
        if cls.ROS2 is None and name not in store.fielddefs:
            found.update(typesys.get_types_from_msg(definition(cls), name))
    if found:
        store.register(found)


# --------------------------------------------------------------------------- values


def encode_generated(msg: Msg, store: Any, to_ros: Any) -> Any:
    """Return the rosbags object of a message of a generated type (``to_ros`` for nested ROS)."""
    cls = type(msg)
    kwargs: dict[str, Any] = {}
    for name, spec in field_schema(cls).items():
        value = getattr(msg, name)
        for ros_type, ros_field in _ros_fields(name, spec):
            kwargs[ros_field] = _encode(ros_type, ros_field, name, spec, value, store, to_ros)
    return store.types[generated_name(cls)](**kwargs)


def _encode_one(spec: FieldSpec, value: Any, store: Any, to_ros: Any) -> Any:
    if spec.kind == "msg":
        return to_ros(value) if type(value).ROS2 else encode_generated(value, store, to_ros)
    return value


def _encode(
    ros_type: str, ros_field: str, name: str, spec: FieldSpec, value: Any, store: Any, to_ros: Any
) -> Any:
    inner = spec.inner
    if ros_field.endswith("_json"):
        return field_json(spec, value)
    if ros_field == f"{name}_shape":
        return np.array([] if value is None else value.shape, dtype=np.uint32)
    if spec.kind == "array" or (spec.kind == "optional" and inner and inner.kind == "array"):
        dtype = ros_type.removesuffix("[]")
        return np.empty(0, dtype) if value is None else np.ascontiguousarray(value, dtype).ravel()
    if spec.kind == "mapping" and inner is not None:
        if ros_field.endswith("_keys"):
            return list(value)
        return _sequence(ros_type, [_encode_one(inner, v, store, to_ros) for v in value.values()])
    if spec.kind == "optional" and inner is not None:
        items = [] if value is None else [_encode_one(inner, value, store, to_ros)]
        return _sequence(ros_type, items)
    if spec.kind == "tuple" and inner is not None:
        return _sequence(ros_type, [_encode_one(inner, v, store, to_ros) for v in value])
    return _encode_one(spec, value, store, to_ros)


def _sequence(ros_type: str, values: list[Any]) -> Any:
    element = ros_type.split("[", 1)[0]
    numeric = {"float64": np.float64, "float32": np.float32, "int64": np.int64, "bool": np.bool_}
    if element in numeric or element.startswith(("int", "uint")):
        return np.array(values, dtype=numeric.get(element, element))
    return values


def decode_generated(obj: Any, cls: type[Msg], from_ros: Any) -> Msg:
    """Return the message of ``cls`` from a rosbags object of its generated type.

    A field the object lacks (a bag written before the field existed, under the bag's
    own definition) takes its default, as :meth:`~robot_msgs.msg.Msg.from_dict` gives it
    to JSON written before; a required one is the ``ValidationError`` that names it.
    WHY: ``ErrorStats`` promises that data written before ``iae`` existed still loads;
    such a bag raised AttributeError, "the bag's message definition differs from ROS's".
    """
    data: dict[str, Any] = {}
    for name, spec in field_schema(cls).items():
        fields = _ros_fields(name, spec)
        if any(not hasattr(obj, ros_field) for _, ros_field in fields):
            continue
        data[name] = _decode(name, spec, fields, obj, from_ros, f"{cls.__name__}.{name}")
    return cls.from_dict(data)


def _decode_one(spec: FieldSpec, value: Any, from_ros: Any, path: str, key: object = None) -> Any:
    """Return one value's ``to_dict`` form; a nested message's refusal named at its place.

    ``path`` (and ``key``: an index or a mapping's key) name the place, as from_dict does
    (``Comparison.signals[1].stats.std``): the nested message is built on its own and
    named its own type (``ErrorStats.std``). The place is formatted only for a refusal.
    """
    if spec.kind == "msg":
        cls = spec.msg_type
        try:
            msg = from_ros(value, cls)
        except ValidationError as err:
            place = path if key is None else f"{path}[{key!r}]"
            raise err.placed(cls.__name__, place) from err
        return msg.to_dict()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _json_value(value: Any, path: str) -> Any:
    """Return the parsed text of a ``NAME_json`` field, read as a message's JSON text is.

    The strict JSON :func:`~robot_msgs.msg.field_json` writes: msgspec's parser (no
    ``NaN``, no number beyond float64, named by its place) and a key given twice in one
    object refused (:mod:`robot_msgs.msg.json_text`), where ``json.loads`` kept the last.
    """
    try:
        text = str(value).encode().removeprefix(BOM)  # as every JSON road: RFC 8259 §8.1
        parsed = msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError, UnicodeEncodeError) as err:
        # RecursionError: lists 10^5 deep; UnicodeEncodeError: a lone surrogate
        named = parse_error(text, path, err) if isinstance(err, msgspec.DecodeError) else None
        if named is not None:  # a number beyond float64, a lone surrogate: its place
            raise named from err
        raise field_error(expected="the field's JSON text", value=value, path=path) from err
    refuse_repeated_keys(text, path)
    return parsed


def _decode(
    name: str, spec: FieldSpec, fields: list[tuple[str, str]], obj: Any, from_ros: Any, path: str
) -> Any:
    """Return the ``to_dict`` form of field ``name`` from its ROS fields; ``path`` names it.

    Raises
    ------
    ValidationError
        What the bytes held is no value of the field: its JSON text is not JSON (or
        nested past Python's recursion, or a key given twice in one object, or a
        number beyond float64), a mapping has more keys than values or fewer.
    """
    inner = spec.inner
    ros_field = fields[0][1]
    value = getattr(obj, ros_field)
    if ros_field.endswith("_json"):
        return _json_value(value, path)
    if len(fields) == 2 and fields[1][1] == f"{name}_shape":
        shape = [int(d) for d in getattr(obj, f"{name}_shape")]
        if not shape and spec.kind == "optional":
            return None
        array = np.asarray(value)
        return {"dtype": str(array.dtype), "shape": shape, "data": array.tolist()}
    if spec.kind == "mapping" and inner is not None:
        keys = list(value)
        values = getattr(obj, f"{name}_values")
        if len(keys) != len(values):
            expected = f"as many {name}_values as {name}_keys ({len(keys)})"
            raise field_error(expected=expected, value=len(values), path=path)
        return {
            k: _decode_one(inner, v, from_ros, path, k) for k, v in zip(keys, values, strict=True)
        }
    if spec.kind == "optional" and inner is not None:
        items = list(value)
        return _decode_one(inner, items[0], from_ros, path) if items else None
    if spec.kind == "tuple" and inner is not None:
        return [_decode_one(inner, v, from_ros, path, i) for i, v in enumerate(value)]
    return _decode_one(spec, value, from_ros, path)
