"""The JSON form of messages: msgspec's encoder and decoder, and strict JSON's floats.

Strict JSON, one convention (:mod:`robot_msgs.strict_json` follows it for plain data):
NaN is ``null`` (as msgspec writes it), ``+inf``/``-inf`` are the strings
``"Infinity"``/``"-Infinity"`` of the proto3 JSON mapping, and where ``null`` means
``None`` (an optional float, a settings value) NaN is ``"NaN"``. msgspec's encoder writes
a message as it stands unless its generated spelling test (:func:`spelling_test`) finds
a value to spell; then the message's JSON form with the spellings is written
(:func:`encode_json`).

Reading is msgspec's: its typed decoder reads the text at once; text it refuses (a
non-finite spelling in a float field, a ROS 2 ``"_type"``, an error) is parsed, its
spellings turned into floats (:func:`revived`, generated per class as :func:`reviver`)
and converted by msgspec. If msgspec still refuses, each field is checked alone, only
to name the one at fault (``Expected float, got str 'x' - at `Pose.x```): the error
path, never a second road. Arrays are ``{"dtype", "shape", "data"}``
(:mod:`robot_msgs.msg.arrays`). A key given twice in one object, which msgspec reads as
the last, is refused on both roads (:mod:`robot_msgs.msg.json_text`).
"""

from __future__ import annotations

import math
import sys
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec
import numpy as np

from robot_msgs.errors import ValidationError, did_you_mean
from robot_msgs.msg.arrays import (
    NON_FINITE,
    array_from_json,
    array_reader,
    array_to_json,
    dtype_name,
    field_error,
)
from robot_msgs.msg.check import deferred_check
from robot_msgs.msg.fields import (
    FrozenMap,
    _dtype_of,
    check_value,
    message_base,
    message_class,
    specs_of,
)
from robot_msgs.msg.json_text import BOM, parse_error, refuse_repeated_keys
from robot_msgs.msg.json_walks import NO_FLOATS, compile_reviver, compile_spelling_test
from robot_msgs.msg.primitives import MissingFloat

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.msg.base import Msg
    from robot_msgs.msg.fields import FieldSpec

__all__ = [
    "decode_json",
    "decode_json_tree",
    "encode_json",
    "encode_json_into",
    "field_json",
    "from_tree",
    "json_form",
    "revived",
    "reviver",
    "ros_names",
    "spelling_test",
    "struct_defaults",
    "to_builtins",
]

M = TypeVar("M", bound="Msg")


def _encode(value: Any) -> Any:
    """Encode what msgspec does not know (its ``enc_hook``): arrays and frozen mappings.

    An array is ``{"dtype", "shape", "data"}`` with the values flat, row-major. A frozen
    mapping is handed over as its inner dict: msgspec only reads it (``to_builtins``
    builds its own, so a ``to_dict`` caller changing it changes no message).
    """
    if type(value) is FrozenMap:
        return value.as_json_dict()
    if isinstance(value, np.ndarray):
        data = value.ravel().tolist()
        return {"dtype": dtype_name(value.dtype), "shape": list(value.shape), "data": data}
    if isinstance(value, FrozenMap):
        return value.as_json_dict()
    msg = f"Expected a message field value, got {type(value).__name__}"
    raise NotImplementedError(msg)  # msgspec's hook protocol: "a type I do not handle"


def _encode_json(value: Any) -> Any:
    """:func:`_encode` for JSON: an array's infinities as ``"Infinity"``/``"-Infinity"``."""
    if isinstance(value, np.ndarray):
        return array_to_json(value)
    return _encode(value)  # a frozen mapping, or the hook protocol's refusal


def _decode(kind: Any, value: Any) -> Any:
    """Decode what msgspec does not know (its ``dec_hook``): an array field's dict.

    Also the value of a ``MissingFloat`` field (:mod:`robot_msgs.msg.primitives`), whose
    ``null`` is NaN.
    """
    if kind is MissingFloat:
        return value if type(value) is float else _missing_float(value)
    read = _READS.get(kind)  # the field's dtype's reader, once seen
    if read is not None:
        return read(value, "$")
    if typing.get_origin(kind) is np.ndarray:
        read = _READS[kind] = array_reader(_dtype_of(kind))
        return read(value, "$")
    if kind is np.ndarray:
        return array_from_json(value, "$")
    msg = f"Expected an array dict, got {type(value).__name__}"
    raise NotImplementedError(msg)  # msgspec's hook protocol: "a type I do not handle"


def _missing_float(value: Any) -> float:
    """Read a ``MissingFloat`` field's JSON value: a number, ``null`` (NaN) or a spelling.

    What a float field takes in JSON (``Infinity``, ``-Infinity`` and ``NaN`` spelled as
    strict JSON writes them), as a plain float; anything else is refused, and the
    reading that names the field at fault (:func:`decode_json_tree`) says what was
    expected.
    """
    kind = type(value)
    if kind is float:
        return value  # type: ignore[no-any-return]
    if value is None:
        return math.nan
    if kind is int and -(2**1023) < value < 2**1023:
        return float(value)
    if kind is str and value in NON_FINITE:
        return NON_FINITE[value]
    msg = f"Expected float, got {kind.__name__}"
    raise TypeError(msg)


#: The reader of each array annotation met (its dtype's :func:`array_reader`).
_READS: dict[Any, Callable[[Any, str], np.ndarray[Any, Any]]] = {}


_JSON_ENCODER = msgspec.json.Encoder(enc_hook=_encode_json)


# --------------------------------------------------------------------------- the JSON form


_INFINITIES = frozenset({math.inf, -math.inf})
_NAN_TEXT_KINDS = frozenset({"optional", "scalar", "value"})  # where null means None


def _non_finite_text(value: float, *, nan: bool) -> Any:
    """Spell a non-finite float for strict JSON (``nan``: NaN as ``"NaN"``, else as is)."""
    if value != value:  # noqa: PLR0124 - NaN
        return "NaN" if nan else value
    if value in _INFINITIES:
        return "Infinity" if value > 0 else "-Infinity"
    return value


def _spelled(spec: FieldSpec, value: Any) -> Any:
    """Return ``value`` with its non-finite floats spelled for JSON (itself if none is)."""
    kind = spec.kind
    if type(value) is float:
        return value if kind == "any" else _non_finite_text(value, nan=kind in _NAN_TEXT_KINDS)
    if kind == "optional" and value is not None:
        return _spelled(typing.cast("FieldSpec", spec.inner), value)  # set for an optional
    if kind == "msg" or hasattr(value, "__struct_fields__"):
        return _spelled_message(value)
    if isinstance(value, tuple) and spec.inner is not None:
        items = [_spelled(spec.inner, v) for v in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if kind == "value" and isinstance(value, tuple):
        items = [_non_finite_text(v, nan=True) if type(v) is float else v for v in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if kind == "mapping" and spec.inner is not None:
        spelled = {k: _spelled(spec.inner, v) for k, v in value.items()}
        return spelled if any(spelled[k] is not v for k, v in value.items()) else value
    return value


#: Per class, the fields that may hold a float: (name, is a plain float field, spec).
_FLOAT_FIELDS: dict[type, tuple[tuple[str, bool, FieldSpec], ...]] = {}


def _float_fields(cls: type) -> tuple[tuple[str, bool, FieldSpec], ...]:
    found = _FLOAT_FIELDS.get(cls)
    if found is None:
        found = _FLOAT_FIELDS[cls] = tuple(
            (name, spec.kind in {"float", "float32"}, spec)
            for name, spec in specs_of(cls).items()
            if spec.kind not in NO_FLOATS
        )
    return found


def _spelled_message(msg: Msg) -> Any:
    """Return ``msg``, or its JSON form with the infinities (and NaN of unions) spelled."""
    changed: dict[str, Any] | None = None
    for name, plain, spec in _float_fields(type(msg)):
        value = getattr(msg, name)
        if plain:  # the common case, inline: NaN stays (null), an infinity is spelled
            if value in _INFINITIES:
                changed = changed or {}
                changed[name] = "Infinity" if value > 0 else "-Infinity"
            continue
        spelled = _spelled(spec, value)
        if spelled is not value:
            changed = changed or {}
            changed[name] = spelled
    if changed is None:
        return msg
    out = {"_type": msg.TYPE}
    for name in msg.__struct_fields__:
        out[name] = changed[name] if name in changed else getattr(msg, name)
    return out


def _plain(value: Any) -> Any:
    """Return a NumPy scalar as Python's (what NumPy code hands over), else ``value``."""
    return value.item() if isinstance(value, np.generic) else value


def _revived(spec: FieldSpec, value: Any) -> Any:
    """Undo :func:`_spelled` on the JSON form: floats back from ``null`` and the strings.

    NumPy scalars become Python's and a 1-D array for a tuple a list (what ROS readers
    and NumPy code hand over), so msgspec sees the plain values it checks.
    """
    kind = spec.kind
    if isinstance(value, np.generic):
        value = value.item()
    elif kind == "tuple" and isinstance(value, np.ndarray) and value.ndim == 1:
        value = value.tolist()
    if kind in {"float", "float32"}:
        if value is None:
            return math.nan
        return NON_FINITE.get(value, value) if isinstance(value, str) else value
    if kind in {"scalar", "value"}:
        if isinstance(value, list):
            return [NON_FINITE.get(v, v) if isinstance(v, str) else _plain(v) for v in value]
        return NON_FINITE.get(value, value) if isinstance(value, str) else value
    if kind == "optional":
        if value is None:
            return None
        inner = typing.cast("FieldSpec", spec.inner)  # set for an optional (compile_annotation)
        if inner.kind in {"float", "float32"} and isinstance(value, str):
            return NON_FINITE.get(value, value)
        return _revived(inner, value)
    if kind == "msg":
        return revived(spec.msg_type, value)
    if kind == "tuple" and isinstance(value, list | tuple):
        inner = typing.cast("FieldSpec", spec.inner)  # set for a tuple
        items = [_revived(inner, v) for v in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    if kind == "mapping" and isinstance(value, Mapping):
        inner = typing.cast("FieldSpec", spec.inner)  # set for a mapping
        out = {k: _revived(inner, v) for k, v in value.items()}
        changed = type(value) is not dict or any(out[k] is not v for k, v in value.items())
        return out if changed else value
    return value


def revived(cls: type[Msg], data: Any) -> Any:
    """Revive the JSON form of a ``cls`` message: its floats, and a ROS ``"_type"`` made ours.

    An older form of the type is first made current by the type's own ``_upgrade``.
    Returns ``data`` itself when nothing changes.
    """
    if not isinstance(data, Mapping):
        return data
    upgraded = cls._upgrade(data)  # the type's hook for its older forms
    out: dict[str, Any] | None = None if type(data) is dict and upgraded is data else dict(upgraded)
    data = upgraded
    if "_type" in data and data["_type"] != cls.TYPE and data["_type"] in ros_names(cls):
        out = out or dict(data)
        out["_type"] = cls.TYPE
    for name, plain, spec in _float_fields(cls):
        if name not in data:
            continue
        value = data[name]
        if plain:  # inline: a number stays, null and the strings are the non-finite floats
            if type(value) is float or type(value) is int:
                continue
            new = math.nan if value is None else _revived(spec, value)
        else:
            new = _revived(spec, value)
        if new is not value:
            out = out or dict(data)
            out[name] = new
    for name, spec in specs_of(cls).items():  # NumPy scalars in the other fields
        if spec.kind in NO_FLOATS and name in data and isinstance(data[name], np.generic):
            out = out or dict(data)
            out[name] = data[name].item()
    return data if out is None else out


#: What msgspec raises, beyond its ValidationError, on objects of a form it reads: a string
#: UTF-8 cannot encode (a lone surrogate, ``UnicodeEncodeError``), an array where a message
#: stands (read as a mapping: ``array["_type"]`` is an ``IndexError``, or a ``ValueError``
#: for a structured array, "no field of name _type"). A hook's own ValueError reaches no
#: further: msgspec turns it into its ValidationError.
_ODD_INPUT = (UnicodeEncodeError, IndexError, ValueError)


def from_tree(cls: type[M], data: Any) -> M:
    """Build a ``cls`` message from its JSON form (parsed), with msgspec.

    Read as it stands if msgspec takes it; else revived (:func:`revived`) and read again;
    if still refused, each field is checked alone to name the one at fault. What msgspec
    raises on an odd object of the form (:data:`_ODD_INPUT`) is a refusal too.
    """
    try:
        try:
            return msgspec.convert(data, cls, dec_hook=_decode)
        except (msgspec.ValidationError, *_ODD_INPUT):
            pass
        return _converted(cls, revived(cls, data))
    except RecursionError as err:  # a hostile form: lists in lists, thousands deep
        raise _too_deep(cls.__name__) from err


def _converted(cls: type[M], fixed: Any) -> M:
    """Convert a revived JSON form with msgspec; a refusal names the field at fault."""
    try:
        return msgspec.convert(fixed, cls, dec_hook=_decode)
    except msgspec.ValidationError as err:
        raise _fault(cls, fixed, cls.__name__, err) from err
    except _ODD_INPUT as err:
        raise _fault(cls, fixed, cls.__name__) from err


def _too_deep(what: str) -> ValidationError:
    """Say that a form of ``what`` (a class name) is nested deeper than the reader goes."""
    msg = (
        f"Expected a {what} nested less deep than Python's recursion limit "
        f"({sys.getrecursionlimit()}), got one deeper"
    )
    return ValidationError(msg)


def to_builtins(msg: Msg) -> dict[str, Any]:
    """Return ``msg`` as plain data (``to_dict``): floats as they are, arrays as list dicts."""
    out: dict[str, Any] = msgspec.to_builtins(msg, enc_hook=_encode)
    return out


def ros_names(cls: type[Msg]) -> tuple[str, str]:
    """Return the ROS type name of ``cls`` as ``pkg/msg/Name`` and as ROS 1's ``pkg/Name``.

    Its ROS 2 equivalent's (``ROS2``), else the name of the definition generated for it
    (``robot_msgs/msg/NAME``, :mod:`robot_msgs.ros.definitions`), which ``to_ros`` gives
    it: one rule for what is written and what is read as ``_type`` (``from_dict`` refused
    ``robot_msgs/msg/ErrorStats``; a review).
    """
    full = cls.ROS2 or f"robot_msgs/msg/{cls.__name__}"
    return full, full.replace("/msg/", "/")


def struct_defaults(cls: type[Any]) -> dict[str, Any]:
    """Return a struct's defaults by field (msgspec keeps those of the last fields).

    A required field declared after a defaulted one (keyword-only structs allow it) has
    msgspec's ``NODEFAULT`` there: it is left out, so it stays required to every reader.
    """
    fields, defaults = cls.__struct_fields__, cls.__struct_defaults__
    pairs = zip(fields[len(fields) - len(defaults) :], defaults, strict=True)
    return {name: default for name, default in pairs if default is not msgspec.NODEFAULT}


def _fault(
    cls: type[M], data: Any, path: str, refused: msgspec.ValidationError | None = None
) -> ValidationError:
    """Name what msgspec refused in ``data`` (a ``cls`` JSON form): each field checked alone.

    Reached only after msgspec has refused ``data``: the error path, never a second road.
    """
    if not isinstance(data, Mapping):
        return field_error(expected=f"{cls.__name__} as a dict", value=data, path=path)
    type_name = data.get("_type", cls.TYPE)
    if type_name != cls.TYPE:
        msg = f"Expected _type {cls.TYPE!r}, got {type_name!r} - at `{path}._type`"
        return ValidationError(msg, field=f"{path}._type")
    specs = specs_of(cls)
    unknown = set(data) - set(specs) - {"_type"}
    if unknown:
        # The first by name: min, not sorted (2e6 keys: 5 s of a refusal's 17 s)
        first = min(unknown, key=str)
        near = did_you_mean(str(first), list(specs))  # evo's max_diff: max_diff_s
        msg = f"Expected fields of {cls.__name__}, got unknown field {first!r}{near}"
        msg += f" - at `{path}`"
        return ValidationError(msg, field=path)
    defaults = struct_defaults(cls)
    missing = [n for n in cls.__struct_fields__ if n not in data and n not in defaults]
    if missing:
        where = f"{path}.{missing[0]}"
        msg = f"Expected required field {missing[0]!r}, got nothing - at `{where}`"
        return ValidationError(msg, field=where)
    values: dict[str, Any] = {}
    for name, spec in specs.items():
        if name in data:
            values[name] = _field_from_json(spec, data[name], f"{path}.{name}")
    try:
        cls(**values)
    except ValidationError as err:  # a cross-field rule
        return err.placed(cls.__name__, path)
    msg = f"Expected a valid {cls.__name__}, got what msgspec refused ({refused}) - at `{path}`"
    return ValidationError(msg, field=path)


def _field_from_json(spec: FieldSpec, value: Any, path: str) -> Any:
    """One field of a JSON form as msgspec reads it, or the error naming what it refused."""
    kind, inner = spec.kind, spec.inner
    if kind == "msg":
        try:
            return msgspec.convert(value, spec.msg_type, dec_hook=_decode)
        except (msgspec.ValidationError, *_ODD_INPUT) as err:
            raise _fault(spec.msg_type, value, path) from err
    if kind == "optional" and inner is not None:
        return None if value is None else _field_from_json(inner, value, path)
    if kind == "tuple" and inner is not None and isinstance(value, list | tuple):
        return [_field_from_json(inner, v, f"{path}[{i}]") for i, v in enumerate(value)]
    if kind == "mapping" and inner is not None and isinstance(value, Mapping):
        return {k: _field_from_json(inner, v, f"{path}[{k!r}]") for k, v in value.items()}
    if kind == "array":
        return array_from_json(value, path, spec.dtype)
    return check_value(spec, value, path, {})


def encode_json(msg: Msg) -> bytes:
    """Return ``msg`` as compact strict JSON (UTF-8), non-finite floats as the module says.

    A message's generated spelling test (:mod:`robot_msgs.msg.json_walks`) says whether
    any of its values is written otherwise than msgspec writes it; if none is (most
    messages), msgspec's encoder writes it at once, arrays spelling their own infinities.

    WHY: the test replaced a search of msgspec's output for ``null`` (a NaN, an infinity
    or a ``None``) followed by a Python walk of the message's floats, and, for a message
    with arrays, the walk always: encoding the catalog's ``Comparison`` (NaN in its
    statistics, ``None`` in its settings) took 13.6 µs, 3.1 µs of them msgspec's; with
    the test 4.5 µs (min of 7 and of 9 runs, a 2-core shared machine).

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> encode_json(Point(x=float("-inf"), y=float("nan")))
    b'{"_type":"geometry/Point","x":"-Infinity","y":null,"z":0.0}'
    """
    return _JSON_ENCODER.encode(_as_encoded(msg))


def json_form(msg: Msg) -> Any:
    """Return ``msg``'s :func:`encode_json` form as Python data (dicts, lists, scalars).

    For a message inside a larger JSON document (:func:`robot_msgs.strict_json.dumps`
    takes messages through it). WHY not ``to_dict()``: it keeps NaN a float, which the
    document then writes ``null``, read back as ``None`` where a field takes ``None``: a
    run's parameter ``x = nan`` came back ``None`` from ``bench``'s records and pooled
    its runs under ``x=None`` (a review); here it is ``"NaN"``, as in the message's JSON.

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> json_form(Point(x=float("inf"), y=float("nan")))
    {'_type': 'geometry/Point', 'x': 'Infinity', 'y': None, 'z': 0.0}
    """
    return msgspec.json.decode(encode_json(msg))


def encode_json_into(msg: Msg, buffer: bytearray) -> None:
    """Append ``msg``'s :func:`encode_json` text to ``buffer`` (a big result: no copy)."""
    _JSON_ENCODER.encode_into(_as_encoded(msg), buffer, -1)


def _as_encoded(msg: Msg) -> Any:
    """Return what msgspec's encoder writes for ``msg``: itself, or its spelled form."""
    test = _SPELLING_TESTS.get(type(msg)) or spelling_test(message_class(msg))
    return _spelled_message(msg) if test(msg) else msg


_SPELLING_TESTS: dict[type, Callable[[Any], bool]] = {}


def spelling_test(cls: type[Msg]) -> Callable[[Msg], bool]:
    """Return whether a ``cls`` message's JSON form spells a non-finite float (generated).

    ``True`` for a message whose JSON form is not msgspec's encoding of it as it stands
    (or when the generated test cannot tell): :func:`encode_json` then walks it.

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> test = spelling_test(Point)
    >>> test(Point(x=float("nan"))), test(Point(y=float("inf")))
    (False, True)
    """
    found = _SPELLING_TESTS.get(cls)
    if found is None:

        def compile_now(namespace: dict[str, Any]) -> Callable[[Any], bool]:
            specs = specs_of(cls)
            return compile_spelling_test(specs, test_of=spelling_test, namespace=namespace)

        found = _SPELLING_TESTS[cls] = deferred_check(compile_now)
    return found


_REVIVERS: dict[type, Callable[[Any], Any]] = {}


def reviver(cls: type[Msg]) -> Callable[[Any], Any]:
    """Return :func:`revived` of ``cls`` for a tree parsed from JSON text (generated).

    The same result as ``revived(cls, tree)`` for what msgspec's JSON decoder returns
    (no NumPy scalars in it), faster (:mod:`robot_msgs.msg.json_walks`).

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> reviver(Point)({"x": None, "y": "-Infinity"})
    {'x': nan, 'y': -inf}
    """
    found = _REVIVERS.get(cls)
    if found is None:

        def compile_now(namespace: dict[str, Any]) -> Callable[[Any], Any]:
            return compile_reviver(
                cls,
                specs_of(cls),
                reviver_of=reviver,
                revived=revived,
                revive_field=_revived,
                namespace=namespace,
            )

        found = _REVIVERS[cls] = deferred_check(compile_now)
    return found


def field_json(spec: FieldSpec, value: Any) -> str:
    """Return one field's value as strict JSON text, non-finite floats spelled as for messages.

    For a form that stores a field as text (a generated ROS definition's ``NAME_json``);
    :meth:`Msg.from_dict` reads the parsed text back.
    """
    return _JSON_ENCODER.encode(_spelled(spec, value)).decode()


def decode_json(data: bytes | str, cls: type[M]) -> M:
    """Build a ``cls`` message from JSON text, such as :func:`encode_json` writes.

    One road for what is read: msgspec's typed decoder for ``cls`` (cached per class)
    reads the text at once; text it refuses for any reason (a non-finite float spelled
    as a string or ``null`` in a float field, a ROS ``"_type"``, an older form, an error)
    is parsed, revived and read by msgspec as :meth:`Msg.from_dict` does, and that second
    reading alone makes every error, so the first can only save time. Both give the same
    message: what the typed decoder takes holds no spelling that reviving would change
    (a ``null`` it takes is a ``None``; a spelled float in a plain or settings field
    fails the decoder or the field's check, and array dicts go through the same
    :func:`~robot_msgs.msg.arrays.array_from_json` on both).

    WHY no byte search first: the typed decoder was tried only on text free of ``null``,
    ``"NaN"`` and ``Infinity"``, which sent every settings message (``null`` is ``None``
    there) and every scan with an infinite range (in an array, read by the same hook)
    down the walk of :func:`revived`: ``EvaluationSettings`` decoded in 9.1 µs with the
    search, 3.8 µs without (min of 9 runs); a refused first try costs one typed parse
    at most.

    Raises
    ------
    ValidationError
        Not JSON, a key given twice in one object (which one is meant?,
        :mod:`robot_msgs.msg.json_text`), or JSON that :meth:`Msg.from_dict` refuses.

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> decode_json(b'{"_type": "geometry_msgs/msg/Point", "x": null, "y": "Infinity"}', Point)
    Point(x=nan, y=inf, z=0.0)
    """
    decoder = _typed_decoder(cls)  # first: it refuses what is no message class
    text = _utf8(data, cls)
    if b"null" not in text or not (_null_is_nan(cls) or _nan_after_key(cls, text)):
        try:
            read = decoder.decode(text)
        except (msgspec.DecodeError, RecursionError):
            pass  # read again below, where every error is made
        else:
            refuse_repeated_keys(text, cls.__name__)  # msgspec kept the last of two
            return read
    return decode_json_tree(data, cls)


def decode_json_tree(data: bytes | str, cls: type[M]) -> M:
    """Read JSON text as :func:`decode_json` does when its typed decoder refuses it.

    Parsed, revived (:func:`revived`) and converted by msgspec; every error of
    :func:`decode_json` is made here. Public so that the two roads can be compared.

    Examples
    --------
    >>> from robot_msgs.geometry import Point
    >>> decode_json_tree(b'{"x": "-Infinity"}', Point)
    Point(x=-inf, y=0.0, z=0.0)
    """
    _typed_decoder(cls)  # its check of the class: no message class is read on
    text = _utf8(data, cls)
    try:
        tree = msgspec.json.decode(text)
    except msgspec.DecodeError as err:  # not JSON, or a value JSON allows and Python not
        named = parse_error(text, cls.__name__, err)  # msgspec's path `$[...]`, or words
        if named is not None:  # not what is wrong ("truncated" for a lone surrogate)
            raise named from err
        shown = text[:40].decode("utf-8", "replace")
        msg = f"Expected JSON text for {cls.__name__}, got {shown!r}...: {err}"
        raise ValidationError(msg) from err
    except RecursionError as err:  # msgspec's parser stops at Python's recursion limit
        raise _too_deep(cls.__name__) from err
    refuse_repeated_keys(text, cls.__name__)  # before any field: which of two is meant?
    return _converted(cls, reviver(cls)(tree))


def _utf8(data: bytes | bytearray | memoryview | str, cls: type) -> bytes:
    """Return JSON text as UTF-8 bytes; text UTF-8 cannot encode (a lone surrogate) is refused.

    A ``bytearray`` or ``memoryview``, which msgspec reads, is copied to ``bytes``: the
    key walk (:mod:`robot_msgs.msg.json_text`) and the error messages take bytes. A
    byte-order mark at the start is dropped (:data:`~robot_msgs.msg.json_text.BOM`),
    as every road that reads JSON text drops it; msgspec refuses it.
    """
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data).removeprefix(BOM)
    if not isinstance(data, str):
        return data.removeprefix(BOM)
    try:
        return data.encode().removeprefix(BOM)
    except UnicodeEncodeError as err:
        shown = data[:40].encode("utf-8", "backslashreplace").decode()
        msg = (
            f"Expected JSON text for {cls.__name__} that UTF-8 can encode, got {shown!r}...: "
            f"a lone surrogate at character {err.start}"
        )
        raise ValidationError(msg) from err


_NULL_IS_NAN: dict[type, bool] = {}
#: Field kinds whose JSON may hold a ``null`` msgspec's typed decoder takes.
_NULL_TAKEN = frozenset({"optional", "scalar", "value", "any", "array"})


def _null_is_nan(cls: type) -> bool:
    """Whether no field of ``cls`` (nested ones too) takes ``null``: it can only be NaN.

    Then a text holding ``null`` goes to :func:`decode_json_tree` at once, since the
    typed decoder would refuse it (a ``null`` inside a string goes there too, which
    only costs time). WHY: ``decode_json`` of the catalog's ``ErrorStats`` (NaN in its
    integrals) took 9.0 µs, of which the refused typed reading was 1.5 µs.
    """
    found = _NULL_IS_NAN.get(cls)
    if found is None:
        _NULL_IS_NAN[cls] = False  # a type that holds itself: unsure while it is computed
        found = True
        for spec in specs_of(cls).values():
            inner = spec
            while inner.inner is not None:
                found = found and inner.kind not in _NULL_TAKEN
                inner = inner.inner
            nested = inner.kind != "msg" or _null_is_nan(inner.msg_type)
            none_a_choice = inner.kind == "literal" and None in (inner.choices or ())
            takes_null = inner.kind in _NULL_TAKEN or inner.null_is_nan or none_a_choice
            found = found and not takes_null and nested
        _NULL_IS_NAN[cls] = found
    return found


_FLOAT_KINDS = frozenset({"float", "float32"})
_NAN_KEYS: dict[type, tuple[bytes, ...]] = {}


def _nan_after_key(cls: type, text: bytes) -> bool:
    """Whether ``text`` holds ``"name":null`` for a float field that defaults to NaN.

    The fields are those of ``cls`` and of the messages it holds whose default is NaN,
    missing data (``ErrorStats.iae``). Such a ``null`` is a NaN the typed decoder
    refuses, so it is not tried. Only time depends on the answer: a NaN ``null`` missed
    (another field, other spacing) is refused by the typed decoder and read as a tree;
    one seen where a same-named field of another type means ``None`` is read as a tree
    too. The keys of held messages are searched first: an ``ErrorStats``' integrals, NaN
    unless a run gives its time axis, are the ``null`` met most. WHY: the catalog's
    ``Repeatability`` (an ``ErrorStats`` with NaN integrals beside settings, where
    ``null`` is ``None``) spent 3.2 of its 9.9 µs decoding in the typed decoder's
    refusal; a search for every float field's key (one regular expression) cost
    1.0-1.4 µs, the first of these byte searches 0.4 µs.
    """
    keys = _NAN_KEYS.get(cls)
    if keys is None:
        names = _missing_floats(cls, set())
        keys = _NAN_KEYS[cls] = tuple(f'"{name}":null'.encode() for name in dict.fromkeys(names))
    return any(map(text.__contains__, keys))


def _missing_floats(cls: type, seen: set[type]) -> list[str]:
    """Return the names of the float fields whose default is NaN, held messages' first."""
    seen.add(cls)
    defaults = struct_defaults(cls)
    nested: list[str] = []
    own: list[str] = []
    for name, spec in specs_of(cls).items():
        default = defaults.get(name)
        nan_default = type(default) is float and math.isnan(default)
        if spec.kind in _FLOAT_KINDS and nan_default and not spec.null_is_nan:
            own.append(name)
        inner: FieldSpec | None = spec
        while inner is not None:  # a message held directly, optionally or in a container
            if inner.kind == "msg" and inner.msg_type not in seen:
                nested += _missing_floats(inner.msg_type, seen)
            inner = inner.inner
    return nested + own


_DECODERS: dict[type, msgspec.json.Decoder[Any]] = {}


def _typed_decoder(cls: type[M]) -> msgspec.json.Decoder[M]:
    """Return msgspec's JSON decoder of ``cls`` with the array hook, made once per class."""
    try:
        found = _DECODERS.get(cls)
    except TypeError:  # unhashable, so no class: "unhashable type: 'list'" escaped
        found = None
    if found is None:
        if message_base(cls) is cls:  # msgspec decodes any type: from_json(b"5", int) gave 5
            # from_json(text, Msg) said "Expected _type '', got 'geometry/Point'", and
            # from_json(b"{}", Msg) gave a bare Msg.
            msg = (
                f"{cls.__name__} is the base of the message classes, not a message type: "
                "give one (as Point), or none to read the type that _type names"
            )
            raise ValidationError(msg)
        found = _DECODERS[cls] = msgspec.json.Decoder(cls, dec_hook=_decode)
    return typing.cast("msgspec.json.Decoder[M]", found)
