"""The JSON form's walks over non-finite floats, generated per message class.

Strict JSON writes a message's infinities as ``"Infinity"``/``"-Infinity"`` (and NaN as
``"NaN"`` where ``null`` means ``None``), which msgspec's encoder does not, and reads
them back (:mod:`robot_msgs.msg.json`). Both walks were Python loops over a table of
field specs, run on every message. This module generates, once per class and on first
use as the construction check is (:mod:`robot_msgs.msg.check`), straight Python for
them:

- :func:`compile_spelling_test`: whether a message holds a value strict JSON writes
  otherwise than msgspec does (``True`` when it cannot tell). Most messages hold none;
  msgspec's text is then the JSON form as it stands, with no walk and no second encoding.
- :func:`compile_reviver`: :func:`robot_msgs.msg.json.revived` of a tree msgspec parsed
  from JSON text (dicts, lists, strings, numbers, ``None``: no NumPy scalar to make
  Python's), unrolled. What is not the common case (not a dict, another ``"_type"``, an
  older form of the type) goes to ``revived`` itself.

WHY: a message whose ``ErrorStats`` hold NaN (``null`` in a float field) is read through
the tree, and every message holding a ``null`` was walked when written. For the
catalog's ``Comparison``, ``Report`` and ``BatteryState`` (µs, min of 7 x 2000, one
run): the walk when written 15.0, 59.4 and 3.1, the generated test 1.2, 9.9 and 0.3;
:func:`~robot_msgs.msg.json.revived` 23.1, 82.8 and 7.1, the generated reviver 4.3,
14.1 and 1.3; json's ``dumps`` of the same messages took 16.2, 41.5 and 4.8, its
``loads`` 12.4, 29.2 and 3.6.
"""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING, Any

from robot_msgs.msg.arrays import NON_FINITE
from robot_msgs.msg.check import _key

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from robot_msgs.msg.fields import FieldSpec

__all__ = ["compile_reviver", "compile_spelling_test", "holds_floats", "spelled_value"]

#: Field kinds that hold no float.
NO_FLOATS = frozenset({"int", "str", "bool", "literal", "array"})
_FLOATS = frozenset({"float", "float32"})
_INFINITIES = frozenset({math.inf, -math.inf})


def holds_floats(spec: FieldSpec) -> bool:
    """Whether a field of ``spec`` may hold a float anywhere (in a nested message too)."""
    if spec.kind in NO_FLOATS:
        return False
    if spec.kind in {"optional", "tuple", "mapping"} and spec.inner is not None:
        return holds_floats(spec.inner)
    return True


def spelled_value(value: object) -> bool:
    """Whether a settings value or scalar is spelled in JSON: a non-finite float, in a tuple too.

    Examples
    --------
    >>> spelled_value(float("nan")), spelled_value((1.0, float("-inf"))), spelled_value("x")
    (True, True, False)
    """
    if type(value) is float:
        return value != value or value in _INFINITIES  # noqa: PLR0124 - NaN
    if type(value) is tuple:
        return any(type(v) is float and (v != v or v in _INFINITIES) for v in value)  # noqa: PLR0124
    return False


def _spelled_values(values: Iterable[object]) -> bool:
    """Whether any of a mapping's settings values is spelled (:func:`spelled_value`).

    WHY one loop: ``any(map(spelled_value, ...))`` called a function per value; the
    catalog's ``Report`` (settings, parameters and groups: 29 values) took 4.6 µs to test.
    """
    for value in values:
        kind = type(value)
        if kind is float:
            if value != value or value in _INFINITIES:  # noqa: PLR0124 - NaN
                return True
        elif kind is tuple and spelled_value(value):
            return True
    return False


def _spelling(
    spec: FieldSpec, v: str, names: dict[str, Any], test_of: Callable[[type], Any]
) -> str | None:
    """Return the test that field value ``v`` is written otherwise than msgspec writes it.

    ``None``: never (no float in it). ``"True"``: a form this module does not state, left
    to the walk. A plain float field is tested by the caller, with the others of its message.
    """
    kind, inner = spec.kind, spec.inner
    if not holds_floats(spec):
        return None
    if kind in {"scalar", "value"}:
        return f"_spelled_value({v})"
    if kind == "msg":
        return f"{_key(names, 'test', test_of(spec.msg_type))}({v})"
    if inner is None:
        return "True"
    if kind == "optional":
        if inner.kind in _FLOATS:
            return f"({v} is not None and ({v} != {v} or {v} in _INF))"
        if inner.kind == "msg" or (inner.kind == "tuple" and inner.inner is not None):
            test = _spelling(inner, v, names, test_of)
            return None if test is None else f"({v} is not None and {test})"
        return "True"
    if kind in {"tuple", "mapping"}:
        items = f"{v}.values()" if kind == "mapping" else v
        if inner.kind in _FLOATS:
            return f"not _INF.isdisjoint({items})"
        if inner.kind in {"scalar", "value"}:
            return f"_spelled_values({items})"
        if inner.kind == "msg":
            return f"any(map({_key(names, 'test', test_of(inner.msg_type))}, {items}))"
    return "True"


def compile_spelling_test(
    specs: dict[str, FieldSpec],
    *,
    test_of: Callable[[type], Callable[[Any], bool]],
    namespace: dict[str, Any],
) -> Callable[[Any], bool]:
    """Generate ``spelled(msg)``: whether ``msg``'s JSON form spells a non-finite float.

    ``specs``: the message class's field specs; ``test_of(cls)``: the test of a nested
    message class (generated later, on its first call); ``namespace``: the globals to
    define it in (see :func:`robot_msgs.msg.check.deferred_check`). Tests the values
    :func:`robot_msgs.msg.json._spelled_message` would change: an infinity in a float
    field, a float tuple or a float mapping; NaN or an infinity in an optional float or a
    settings value or scalar; the same in a nested message.
    """
    names = namespace
    names |= {
        "_INF": _INFINITIES,
        "_spelled_value": spelled_value,
        "_spelled_values": _spelled_values,
    }
    body: list[str] = []
    for name, spec in specs.items():
        test = None if spec.kind in _FLOATS else _spelling(spec, "v", names, test_of)
        if test == "True":  # a form not stated here: every message is walked
            body = ["    return True"]
            break
        if test is not None:
            body += [f"    v = m.{name}", f"    if {test}:", "        return True"]
    else:
        plain = [f"m.{name}" for name, spec in specs.items() if spec.kind in _FLOATS]
        end = f"not _INF.isdisjoint(({', '.join(plain)},))" if plain else "False"
        body.append(f"    return {end}")
    exec("\n".join(["def spelled(m):", *body]) + "\n", names)  # noqa: S102 - generated above
    made: Callable[[Any], bool] = names["spelled"]
    return made


def compile_reviver(
    cls: type[Any],
    specs: dict[str, FieldSpec],
    *,
    reviver_of: Callable[[type], Callable[[Any], Any]],
    revived: Callable[[type[Any], Any], Any],
    revive_field: Callable[[FieldSpec, Any], Any],
    namespace: dict[str, Any],
) -> Callable[[Any], Any]:
    """Generate ``revive(tree)``: ``revived(cls, tree)`` for a tree parsed from JSON text.

    ``reviver_of(cls)``: the reviver of a nested message class; ``revived``: the walk
    itself, for what is not the common case; ``revive_field(spec, value)``: the walk of
    one field (:func:`robot_msgs.msg.json._revived`), for the forms not unrolled here.
    Returns ``tree`` itself when nothing changes, as ``revived`` does.
    """
    names = namespace
    names |= {
        "_walk": revived,
        "_cls": cls,
        "_TYPE": cls.TYPE,
        "_field": revive_field,
        "_nan": math.nan,
        "_is_not": operator.is_not,
        "_numbers": _numbers,
        "_settled_values": _settled_values,
        "_upgrade": cls._upgrade,
    }
    lines = [
        "def revive(d):",
        "    if type(d) is not dict or d.get('_type', _TYPE) != _TYPE:",
        "        return _walk(_cls, d)",
    ]
    if cls._upgrade.__func__ is not _base_upgrade(cls):
        lines += ["    if _upgrade(d) is not d:", "        return _walk(_cls, d)"]
    lines.append("    o = None")
    for name, spec in specs.items():
        if not holds_floats(spec):
            continue
        s, inner = _key(names, "spec", spec), spec.inner
        lines += [f"    v = d.get({name!r}, d)", "    n = v"]
        if spec.kind in _FLOATS:
            lines += [
                "    if v is not d and type(v) is not float and type(v) is not int:",
                f"        n = _nan if v is None else _field({s}, v)",
            ]
        elif spec.kind == "msg":
            r = _key(names, "rev", reviver_of(spec.msg_type))
            lines += ["    if v is not d:", f"        n = {r}(v)"]
        elif spec.kind == "optional" and inner is not None and inner.kind == "msg":
            r = _key(names, "rev", reviver_of(inner.msg_type))
            lines += ["    if v is not d and v is not None:", f"        n = {r}(v)"]
        elif spec.kind == "tuple" and inner is not None and inner.kind == "msg":
            r = _key(names, "rev", reviver_of(inner.msg_type))
            lines += [
                "    if type(v) is list:",
                f"        n = [{r}(x) for x in v]",
                "        if not any(map(_is_not, n, v)):",
                "            n = v",
                "    elif v is not d:",
                f"        n = _field({s}, v)",
            ]
        elif spec.kind == "mapping" and inner is not None and inner.kind == "msg":
            r = _key(names, "rev", reviver_of(inner.msg_type))
            lines += [
                "    if type(v) is dict:",
                f"        n = {{k: {r}(x) for k, x in v.items()}}",
                "        if not any(map(_is_not, n.values(), v.values())):",
                "            n = v",
                "    elif v is not d:",
                f"        n = _field({s}, v)",
            ]
        else:
            lines += [
                f"    if v is not d and not ({_settled(spec)}):",
                f"        n = _field({s}, v)",
            ]
        lines += [
            "    if n is not v:",
            "        if o is None:",
            "            o = dict(d)",
            f"        o[{name!r}] = n",
        ]
    lines.append("    return d if o is None else o")
    exec("\n".join(lines) + "\n", names)  # noqa: S102 - code generated above from the specs
    made: Callable[[Any], Any] = names["revive"]
    return made


def _settled(spec: FieldSpec) -> str:
    """Return the test that a JSON value ``v`` of a field holds nothing to revive, or "False".

    What :func:`robot_msgs.msg.json._revived` returns as it is: ``None``, numbers and
    lists or mappings of numbers for floats, and no text spelling a float for a scalar.
    """
    kind, inner = spec.kind, spec.inner
    if kind == "optional" and inner is not None:
        test = _settled(inner)
        return "v is None" if test == "False" else f"v is None or {test}"
    if kind in _FLOATS:
        return "type(v) is float or type(v) is int"
    if inner is not None and inner.kind in _FLOATS and kind in {"tuple", "mapping"}:
        items = "v.values()" if kind == "mapping" else "v"
        return f"type(v) is {'dict' if kind == 'mapping' else 'list'} and _numbers({items})"
    if inner is not None and inner.kind in {"scalar", "value"} and kind == "mapping":
        return "type(v) is dict and _settled_values(v.values())"
    return "False"


def _numbers(values: Iterable[object]) -> bool:
    """Whether every one of ``values`` is a JSON number (a float or an int)."""
    return set(map(type, values)) <= _NUMBER_TYPES


def _settled_values(values: Iterable[object]) -> bool:
    """Whether no settings value among ``values`` is a spelling or a list (to revive)."""
    for value in values:
        kind = type(value)
        if (kind is str and value in NON_FINITE) or kind is list or kind is dict:
            return False
    return True


_NUMBER_TYPES = frozenset({float, int})


def _base_upgrade(cls: type[Any]) -> object:
    """Return the base class's ``_upgrade`` function (the one that changes nothing)."""
    base = next(k for k in reversed(cls.__mro__) if "_upgrade" in vars(k))
    return vars(base)["_upgrade"].__func__
