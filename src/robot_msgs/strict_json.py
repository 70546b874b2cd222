r"""Strict JSON out: the one place non-finite floats get their JSON spelling.

Every JSON file the package writes and everything ``--json`` prints goes through
:func:`dumps` (or, for messages, :func:`robot_msgs.msg.encode_json`, which follows the
same convention), so any strict parser reads it (``NaN`` and ``Infinity`` are not JSON).
The convention is the proto3 JSON mapping's: ``+inf`` and ``-inf`` are the strings
``"Infinity"`` and ``"-Infinity"``; NaN is ``null``. A message's ``from_dict`` reads
all of them back as floats (and ``"NaN"``), so saved messages load back equal, and files
written when infinities were ``null`` still load (as NaN).

Examples
--------
>>> dumps({"rms": float("nan"), "max": float("inf"), "n": 0})
'{\n  "rms": null,\n  "max": "Infinity",\n  "n": 0\n}\n'
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
import sys
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from robot_msgs.errors import ValidationError
from robot_msgs.flags import _not_none

__all__ = ["dumps", "from_form", "json_safe"]

T = TypeVar("T")


def json_safe(value: Any) -> Any:
    """Return ``value`` with NaN as ``None`` and the infinities as their strings, recursively.

    Raises
    ------
    ValidationError
        A dict holds two keys JSON writes as one name (``1`` and ``"1"``).

    Examples
    --------
    >>> json_safe({"a": [1.0, float("nan")], "b": {"c": float("-inf")}})
    {'a': [1.0, None], 'b': {'c': '-Infinity'}}
    """
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if math.isnan(value):
            return None
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, dict):  # keys as json.dumps writes them: a NumPy number as its number
        safe = {_number(k): json_safe(v) for k, v in value.items()}
        _refuse_keys_written_alike(safe)
        return safe
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def from_form(cls: type[T], data: Any, *, at: str = "$") -> T:
    """Build a dataclass or struct from its parsed JSON form, each field checked by msgspec.

    Strict types (no ``"1"`` for ``1``), and every field's key, a default or not: the form
    is what the package wrote whole, and a layout that changes gets a new format number,
    never a default (a run record missing its ``report`` was read as a run without one).
    msgspec's rules hold below the top (a nested struct's default may be absent). Messages
    read themselves (``Msg.from_dict``). ``at`` is where ``data`` stands in the document
    read (``$.result`` for a run record's result), so that the error names the key there.

    Raises
    ------
    ValidationError
        What msgspec refused, naming the key; a key UTF-8 cannot encode (a lone
        surrogate, which JSON may spell as an escape and :func:`json.loads` reads) too.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Run:
    ...     name: str
    ...     status: typing.Literal["ok", "failed"] = "ok"
    ...     attempts: int = 1
    >>> from_form(Run, {"name": "a", "status": "failed", "attempts": 1})
    Run(name='a', status='failed', attempts=1)
    >>> def refusal(data, at="$"):
    ...     try:
    ...         from_form(Run, data, at=at)
    ...     except ValidationError as err:
    ...         return str(err)
    >>> refusal({"name": "a", "status": "ok", "attempts": "2"}, at="$.result")
    'Expected a valid Run: expected `int`, got `str` - at `$.result.attempts`'
    >>> refusal({"name": "a", "status": "gone", "attempts": 1})
    "Expected a valid Run: expected one of 'ok', 'failed', got 'gone' - at `$.status`"
    >>> refusal({})
    "Expected a valid Run: expected required field 'name', got nothing - at `$.name`"
    >>> refusal({"name": "a", "status": "ok"})
    "Expected a valid Run: expected required field 'attempts', got nothing - at `$.attempts`"
    """
    import msgspec  # noqa: PLC0415 - see _message: the message base's dependency

    kind: type = cls  # functools.cache takes a type, mypy not a type[T]
    keys = _keys_to_check(kind)
    if keys and isinstance(data, Mapping):  # msgspec would fill a default in
        absent = next((key for key in keys if key not in data), None)
        if absent is not None:
            said = f"expected required field {absent!r}, got nothing"
            raise _refused(cls, said, f"{at}.{absent}")
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError as err:
        if isinstance(err.__cause__, ValidationError):  # a rule of cls or a part (__post_init__)
            rule = err.__cause__  # msgspec adds where a part's stands: " - at `$.result`"
            inner = str(err).removeprefix(str(rule)).removeprefix(" - at `$").removesuffix("`")
            raise _rule_refused(cls, rule, at + inner) from err
        raise _refused(cls, *_in_our_words(cls, str(err), at)) from err
    except UnicodeEncodeError as err:  # msgspec encodes each key to UTF-8 to look it up
        raise _refused(cls, f"expected keys UTF-8 can encode, got {err.object!r}", at) from err


def _refused(cls: type, said: str, path: str) -> ValidationError:
    """Return the error of :func:`from_form`: "Expected a valid X: expected Y, got Z - at ..."."""
    msg = f"Expected a valid {cls.__name__}: {said} - at `{path}`"
    return ValidationError(msg, field=path, reason=said)


@functools.cache
def _keys_to_check(cls: type) -> tuple[str, ...]:
    """Return the keys of ``cls``'s form if a field has a default, else ``()``.

    msgspec requires the fields without one, and fills the others in. WHY cached:
    ``--resume`` reads the head of every record (~2 µs each).
    """
    if dataclasses.is_dataclass(cls):
        no = dataclasses.MISSING
        fields = [f for f in dataclasses.fields(cls) if f.init]
        if all(f.default is no and f.default_factory is no for f in fields):
            return ()
        return tuple(f.name for f in fields)
    keys: tuple[str, ...] = getattr(cls, "__struct_encode_fields__", ())
    return keys if getattr(cls, "__struct_defaults__", ()) else ()


def _rule_refused(cls: type, rule: ValidationError, at: str) -> ValidationError:
    """Return the refusal of a rule between fields, of ``cls`` or a part, placed at ``at``.

    The rule names its owner's fields (``at `RunResult.status` and `RunResult.report```),
    its owner the start of its ``field`` (else ``cls``); in the document read they are
    ``$.result.status`` and ``$.result.report``.
    """
    owner = rule.field.partition(".")[0] or cls.__name__
    placed = rule.placed(owner, at)
    where = str(placed).rpartition(" - at ")[2]
    msg = f"Expected a valid {cls.__name__}: {rule.reason} - at {where}"
    return ValidationError(msg, field=placed.field, reason=rule.reason)


def _in_our_words(cls: type, said: str, at: str) -> tuple[str, str]:
    """Return msgspec's refusal as "expected X, got Y" and the path it names, rooted at ``at``.

    WHY: msgspec says ``Invalid enum value 'gone'`` without the values it takes, and
    ``Object missing required field `x``` at the object, not at the key.
    """
    said, _, where = said.partition(" - at `$")
    inner = where.removesuffix("`")  # ".result.status", "" at the top
    path = at + inner
    if missing := re.fullmatch(r"Object missing required field `(.*)`", said):
        return f"expected required field {missing[1]!r}, got nothing", f"{path}.{missing[1]}"
    if value := re.fullmatch(r"Invalid enum value (.*)", said):
        choices = _choices(cls, inner)
        if choices:
            return f"expected one of {', '.join(map(repr, choices))}, got {value[1]}", path
    return said[:1].lower() + said[1:], path


def _choices(cls: type, path: str) -> tuple[Any, ...]:
    """Return the values of the ``Literal`` at msgspec's ``path`` (``.result.status``)."""
    kind: Any = cls
    try:
        for name, _index in re.findall(r"\.(\w+)|(\[[^]]*\])", path):
            kind = _not_none(kind)
            if name:
                kind = typing.get_type_hints(kind)[name]
            else:  # a list's item, a dict's value; tuple[X, ...] is (X, Ellipsis)
                kind = [a for a in typing.get_args(kind) if a is not Ellipsis][-1]
        kind = _not_none(kind)
    except (KeyError, IndexError, NameError, TypeError):
        return ()
    return typing.get_args(kind) if typing.get_origin(kind) is typing.Literal else ()


def _refuse_keys_written_alike(data: dict[Any, Any]) -> None:
    """Refuse two keys of ``data`` that JSON writes as one name (``1`` and ``"1"``).

    WHY: ``json.dumps({1: "a", "1": "b"})`` writes ``"1"`` twice; a strict reader (ours,
    :func:`robot_msgs.msg.json_text.refuse_repeated_keys`) refuses that document, and
    others keep the last value only.
    """
    if all(type(key) is str for key in data):  # the usual document: nothing to compare
        return
    seen: dict[str, Any] = {}
    for key in data:
        if isinstance(key, str):
            name = key
        elif key is None or isinstance(key, bool | int | float):  # as json writes a key
            name = json.dumps(key)
        else:  # a key JSON refuses (a tuple): json.dumps says so
            continue
        if name in seen:
            said = f"{seen[name]!r} and {key!r}, both written {json.dumps(name)}"
            msg = f"Expected keys that JSON writes as different names, got {said}"
            raise ValidationError(msg)
        seen[name] = key


def dumps(data: Any, *, indent: int | None = 2) -> str:
    r"""Return ``data`` as strict JSON text ending in a newline, keys in the order given.

    Messages in ``data`` are written in their own JSON form (``"NaN"`` where a field
    takes ``None`` too).

    ``indent=None`` writes one compact line (the C encoder: several times faster for big
    outputs). NumPy's booleans, integers and floats (a sample of an array) are written as
    the numbers they are, by the same convention, as values and as keys.

    Raises
    ------
    ValidationError
        ``data`` holds what JSON does not (an object, a complex number, a key that is not
        a string, number, bool or None, two keys written alike: ``1`` and ``"1"``), or
        holds itself.

    Examples
    --------
    >>> dumps([1.5, float("inf")], indent=None)
    '[1.5,"Infinity"]\n'
    """
    separators = (",", ":") if indent is None else None
    try:
        text = json.dumps(
            json_safe(data), indent=indent, separators=separators, allow_nan=False, default=_message
        )
    except ValidationError:
        raise
    except (TypeError, ValueError, RecursionError) as err:  # a key json refuses, a loop
        said = (
            "data that holds itself, or nested too deep" if isinstance(err, RecursionError) else err
        )
        msg = f"Expected data JSON holds, got {said}"
        raise ValidationError(msg) from err
    return text + "\n"


def _message(value: Any) -> Any:
    """Return a message inside ``data`` as its JSON form (:func:`robot_msgs.msg.json.json_form`).

    WHY: ``to_dict()`` keeps a NaN that a field may hold beside ``None`` (a run's
    parameters) as a float, which this module writes ``null``, read back as ``None``; the
    message's own JSON writes ``"NaN"`` there. Imported here alone: most documents hold
    no message, and ``--help`` stays free of the message base.
    """
    from robot_msgs.msg.base import Msg  # noqa: PLC0415 - see the docstring

    if isinstance(value, Msg):
        from robot_msgs.msg.json import json_form  # noqa: PLC0415

        return json_form(value)
    if isinstance(value, Mapping):  # a message's mapping field (FrozenMap), from as_dict()
        return json_safe(dict(value))
    plain = _number(value)
    if plain is not value:  # a sample of an array (a count, a rate), as a message writes it
        return json_safe(plain)  # (a float32 NaN is null)
    msg = f"Expected data JSON holds, got {type(value).__name__} {value!r:.40}"
    raise ValidationError(msg)


def _number(value: Any) -> Any:
    """Return a NumPy bool, integer or float scalar as the Python number it is, else ``value``.

    Values and keys alike: ``{np.int64(1): 2}`` is written ``{"1": 2}``, as ``json.dumps``
    writes ``{1: 2}``. A longdouble, which ``item()`` keeps, stays itself (refused).
    """
    if type(value) is str:
        return value
    numpy = sys.modules.get("numpy")  # a NumPy scalar given has imported it: no import here
    if numpy is not None and isinstance(value, numpy.bool_ | numpy.integer | numpy.floating):
        plain = value.item()
        if isinstance(plain, bool | int | float):
            return plain
    return value
