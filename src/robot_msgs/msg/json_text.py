r"""What msgspec's parser does not say of a message's JSON text: repeated keys, big numbers.

msgspec keeps the last of two equal keys in silence (``{"x": 1, "x": 2}`` read as
``x = 2``; msgspec issue 648, open), where :func:`robot_msgs.documents.parse_json` refuses
them: a file edited by hand or joined from two says two things and reading one of them
hides it. :func:`refuse_repeated_keys` is called on every message text msgspec has
parsed (:func:`robot_msgs.msg.json.decode_json`, both of its roads, and
:func:`robot_msgs.from_json`); :func:`repeated_key` is the same check for the
documents ``json`` parses (:func:`robot_msgs.documents.parse_json`, which keeps the last
too), so one rule names one key: the first in the text given twice in its object.

The walk is C where built (``robot_msgs.msg._json_keys``, whose source says why, with
the measurement); :func:`repeated_key_in_python` is the same walk, for a build without
a C compiler and for text with a key written with an escape that stays (``\"``,
``\\``, a control): it unescapes keys (``"\u0061"`` is the key ``a``), the C walk
compares them as written, after the text's strings are written without the escapes
they can do without (``"\u00e9"`` as ``"é"``, as ``json.dumps`` writes keys past ASCII).

A number beyond float64 (``1e99999``) is refused by msgspec's parser with a path of
``[...]`` (``Number out of range - at `$[...][...][0]```): the text is parsed before
any type is known. The roads call :func:`parse_error`, which finds the field it stands
in, as every other bad value is named (``- at `EvaluationResult.comparison.signals[0].stats.rms```),
once msgspec has refused the text: the error path only. :func:`robot_msgs.from_json`
without a type roots the path at the type its ``"_type"`` names. It names so, in text
order, an integer too long for msgspec and a string or key holding a lone surrogate
(msgspec: "Input data was truncated"), and says UTF-16 or UTF-32 text to be such text.

Examples
--------
>>> refuse_repeated_keys(b'{"x": {"x": 1}, "y": 2}', "Point")
>>> refuse_repeated_keys(b'{"x": 1, "y": 2, "x": 3}', "Point")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
robot_msgs.errors.ValidationError: Expected ... each key once in an object, got key 'x' twice: ...
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = [
    "BOM",
    "lone_surrogate",
    "out_of_range_in",
    "parse_error",
    "refuse_repeated_keys",
    "repeated_key",
    "repeated_key_in_python",
    "wide_encoding",
]

#: The byte-order mark (U+FEFF) as UTF-8, which every road that reads JSON text ignores at
#: its start (RFC 8259 §8.1 lets a parser ignore it): Notepad and PowerShell write it.
#: One mark only: a second is text, and not JSON.
BOM = b"\xef\xbb\xbf"

_SLASH = ord("\\")
_BLANKS = frozenset(b" \t\r\n")
_COLON = ord(":")


def _key(raw: bytes) -> bytes:
    r"""Return a key's raw bytes unescaped (``\u0061`` is ``a``), as UTF-8.

    ``json`` unescapes it: msgspec refuses a lone surrogate (``\ud800``), which
    ``json.loads`` takes (:func:`robot_msgs.documents.parse_json`), as it may be written
    (surrogatepass).
    """
    if _SLASH not in raw:
        return raw
    import json  # noqa: PLC0415 - keys written with an escape only: start-up stays free of it

    text: str = json.loads(b'"' + raw + b'"')
    return text.encode("utf-8", "surrogatepass")


def repeated_key_in_python(text: bytes) -> bytes | None:
    r"""Return the first key of JSON ``text`` that an earlier key of its object equals.

    ``text`` is JSON a parser has taken. The key is returned unescaped, as UTF-8 bytes;
    ``None`` when every object's keys differ. Quotes and braces are found with
    ``bytes.find`` (C speed over numbers), one Python step each.

    Examples
    --------
    >>> repeated_key_in_python(b'{"a": {"b": 1}, "b": "}\\"b\\":", "c": 2}') is None
    True
    >>> repeated_key_in_python(b'[{"a": 1}, {"a": 2, "\\u0061": 3}]')
    b'a'
    """
    find, size = text.find, len(text)
    objects: list[set[bytes]] = []
    keys: set[bytes] | None = None  # the keys of the innermost open object
    quote, opening, closing = (find(mark) % (size + 1) for mark in (b'"', b"{", b"}"))
    while min(quote, opening, closing) < size:
        if quote < opening and quote < closing:
            end = find(b'"', quote + 1)
            while end > 0 and text[end - 1] == _SLASH:  # an escaped quote, if odd slashes
                first = end - 1
                while text[first - 1] == _SLASH:
                    first -= 1
                if (end - first) % 2 == 0:
                    break
                end = find(b'"', end + 1)
            if end < 0:
                return None  # not JSON: the parser has said so
            after = end + 1
            while after < size and text[after] in _BLANKS:
                after += 1
            if keys is not None and after < size and text[after] == _COLON:
                key = _key(text[quote + 1 : end])
                if key in keys:
                    return key
                keys.add(key)
            quote = find(b'"', end + 1) % (size + 1)
            if opening < end:
                opening = find(b"{", end + 1) % (size + 1)
            if closing < end:
                closing = find(b"}", end + 1) % (size + 1)
        elif opening < closing:
            if keys is not None:
                objects.append(keys)
            keys = set()
            opening = find(b"{", opening + 1) % (size + 1)
        else:
            keys = objects.pop() if objects else None
            closing = find(b"}", closing + 1) % (size + 1)
    return None


try:  # WHY in C, measured: see its source, robot_msgs/msg/_json_keys.c
    from robot_msgs.msg._json_keys import (  # type: ignore[import-not-found]
        repeated_key as _repeated_key,
    )
except ImportError:  # built without a C compiler
    _repeated_key = repeated_key_in_python  # never True: it unescapes keys itself


def repeated_key(text: bytes) -> str | None:
    r"""Return the first key (in text order) of UTF-8 JSON ``text`` its object gives twice.

    ``text`` is JSON a parser has taken; the key is unescaped; ``None`` when every
    object's keys differ. The one check of a key given twice, for message text (msgspec
    keeps the last) and documents (:func:`robot_msgs.documents.parse_json`: ``json`` does).

    Examples
    --------
    >>> repeated_key(b'[{"a": 1}, {"b": {"a": 2}, "\\u0062": 3}]')
    'b'
    """
    key = _repeated_key(text)
    if key is True:  # a key written with an escape: the C walk again, on the strings unescaped
        text = _unescaped(text)
        key = _repeated_key(text)
    if key is True:  # a key still with one (\\, \", a control): the Python walk unescapes
        key = repeated_key_in_python(text)
    return None if key is None else key.decode("utf-8", "surrogatepass")


def _unescaped(text: bytes) -> bytes:
    r"""Return JSON ``text`` with its strings written without the escapes they can do without.

    ``"\u00e9"`` is written ``"é"``, so equal keys are written alike but for ``\"``,
    ``\\`` and controls, which stay. Each string with a backslash is found from the
    backslash (``bytes.find``: JSON has none outside strings): its opening quote is the
    last quote before it not escaped, its closing one the first after it.
    WHY: ``json.dumps`` writes every key past ASCII with ``\u`` escapes, and one such key
    sent a whole document to the Python walk: a 15 MB bench summary took 1.5 s for 0.4 s.
    """
    import json  # noqa: PLC0415 - text with escapes only: start-up stays free of it

    def unescaped_quote(at: int, step: int) -> int:
        while at >= 0:
            slashes = 0
            while at - 1 - slashes >= 0 and text[at - 1 - slashes] == _SLASH:
                slashes += 1
            if slashes % 2 == 0:
                return at
            at = text.rfind(b'"', 0, at) if step < 0 else text.find(b'"', at + 1)
        return at

    pieces: list[bytes] = []
    done = 0
    slash = text.find(b"\\")
    while slash >= 0:
        opening = unescaped_quote(text.rfind(b'"', done, slash), -1)
        closing = unescaped_quote(text.find(b'"', slash), 1)
        try:
            value = json.loads(text[opening : closing + 1]) if done <= opening < closing else 1
        except ValueError:
            value = 1
        if not isinstance(value, str):  # not JSON (the parser has said so): the Python walk
            return text
        pieces += [
            text[done:opening],
            json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"),
        ]
        done = closing + 1
        slash = text.find(b"\\", done)
    return b"".join([*pieces, text[done:]])


def refuse_repeated_keys(text: bytes, name: str) -> None:
    """Refuse JSON ``text`` (parsed already) of a ``name`` that gives a key twice in one object.

    Raises
    ------
    ValidationError
        A key given twice in one object (msgspec would keep the last), named.
    """
    shown = repeated_key(text)
    if shown is not None:
        msg = (
            f"Expected JSON text for {name} with each key once in an object, "
            f"got key {shown!r:.60} twice: which one is meant?"
        )
        raise ValidationError(msg)


_INFINITIES = frozenset({math.inf, -math.inf})


def _refuse_constant(name: str) -> float:
    """``json.loads``' hook for ``NaN`` and ``Infinity``, which JSON has not."""
    msg = f"not JSON: {name}"
    raise ValueError(msg)


def _step(key: str | int) -> str:
    """Return the path step of ``key``: ``.name``, ``['other key']`` or ``[index]``."""
    if type(key) is int:
        return f"[{key}]"
    return f".{key}" if str(key).isidentifier() else f"[{key!r}]"


class _Pairs(list[tuple[str, Any]]):
    """An object's pairs as written (``json``'s ``object_pairs_hook``).

    A key given twice stays twice, so a number beyond float64 is found where a later
    value of its key would hide it (``{"x": 1e99999, "x": 2}``).
    """


def _children(node: Any, kind: type) -> Iterable[tuple[Any, Any]]:
    """Return a parsed node's (key or index, value) pairs in text order; none for a leaf."""
    return (
        node if kind is _Pairs
        else node.items() if kind is dict
        else enumerate(node) if kind is list
        else ()
    )  # fmt: skip


def _beyond(node: Any, path: str) -> str | None:
    """Return the path of a parsed document's first infinite float (text order), or None."""
    if type(node) is float:
        return path if node in _INFINITIES else None
    kind = type(node)
    for key, value in _children(node, kind):
        if type(value) is float and value not in _INFINITIES:
            continue  # most of a saved result: no call for each
        found = _beyond(value, path + _step(key))
        if found is not None:
            return found
    return None


def lone_surrogate(text: str) -> str | None:
    r"""Return the first lone surrogate of ``text`` (which UTF-8 cannot encode), or None.

    Examples
    --------
    >>> lone_surrogate("x\udc00y\ud800"), lone_surrogate("\xe9 \U0001f600"), lone_surrogate("")
    ('\udc00', None, None)
    """
    if text.isascii():
        return None
    try:
        text.encode()
    except UnicodeEncodeError as err:
        return text[err.start]
    return None


class _LongInteger(str):
    """An integer's text longer than msgspec's parser reads (``json``'s ``parse_int`` hook)."""

    __slots__ = ()


#: msgspec refuses an integer written with more characters than this, its sign counted
#: ("Integer value out of range - at `$[...]`"); Python converts no more digits by default.
_LONGEST_INTEGER = 4300


def _integer(text: str) -> int | _LongInteger:
    """Read an integer as ``json`` does, marking one msgspec's parser refuses as too long."""
    return _LongInteger(text) if len(text) > _LONGEST_INTEGER else int(text)


def _refused(node: Any, path: str) -> tuple[str, str, str] | None:
    """Return the place of a parsed document's first value msgspec's parser refuses.

    In text order: a number beyond float64 (an infinity, as ``json`` reads it), an
    integer too long, a string or a key holding a lone surrogate. Returns the path, the
    value's text (a number's: empty) and what it is (``number``, ``integer``, ``string``
    or ``key``); ``None`` where there is none.
    """
    kind = type(node)
    if kind is float:
        return (path, "", "number") if node in _INFINITIES else None
    if kind is _LongInteger:
        return path, node, "integer"
    if kind is str:
        return None if lone_surrogate(node) is None else (path, node, "string")
    for key, value in _children(node, kind):
        step = path + _step(key)
        if type(key) is str and lone_surrogate(key) is not None:
            return step, key, "key"
        if type(value) is float and value not in _INFINITIES:
            continue  # most of a saved result: no call for each
        found = _refused(value, step)
        if found is not None:
            return found
    return None


def wide_encoding(text: bytes) -> str:
    r"""Return iconv's name of the UTF-16 or UTF-32 encoding of ``text``; empty if none.

    Such text starts with a byte-order mark or with NULs beside ASCII
    (:func:`json.detect_encoding`); only text that decodes whole is said to be wide, in
    a message's JSON (:func:`parse_error`) as in a file
    (:func:`robot_msgs.documents.wide_text_error`), or whole but its last character,
    cut short, where it has a byte-order mark or at least half its characters are ASCII
    (not NUL: a zero-filled file is none). WHY: a UTF-16 log cut mid-character (an odd
    number of bytes) was refused by its cells, as if it were UTF-8.

    Examples
    --------
    >>> wide_encoding('{"a": 1}'.encode("utf-32")), wide_encoding(b'{"a": 1}')
    ('UTF-32', '')
    >>> wide_encoding("t,x\n0,1\n".encode("utf-16-le")[:-1]), wide_encoding(b"\0\1\2")
    ('UTF-16LE', '')
    """
    import json  # noqa: PLC0415 - the error path only: start-up stays free of it

    encoding = json.detect_encoding(text)
    if encoding.startswith("utf-8"):
        return ""
    try:
        text.decode(encoding)
    except UnicodeDecodeError as err:  # binary data that merely starts with a NUL
        if err.end < len(text):  # or text cut short: only its last character is not whole
            return ""
        if encoding[-3:] in ("-le", "-be"):  # no byte-order mark: ASCII in half
            import numpy as np  # noqa: PLC0415 - the error path only

            width = 4 if "32" in encoding else 2
            order = "<" if encoding.endswith("le") else ">"
            units = np.frombuffer(text, f"{order}u{width}", len(text) // width)
            # WHY: a unit of NULs alone (a zero-filled file) holds no ASCII character.
            if 2 * np.count_nonzero((units > 0) & (units < 128)) < units.size:
                return ""
    return encoding.upper().replace("-LE", "LE").replace("-BE", "BE")


def parse_error(
    text: bytes, name: str | Callable[[object], str], refused: Exception
) -> ValidationError | None:
    r"""Say what msgspec's parser ``refused`` in JSON ``text`` where its words do not.

    ``json`` reads what msgspec refuses with a path of ``$[...]`` or in words that are
    not what is wrong, and the first such value in the text is named by its field: a
    number beyond float64 (as :func:`out_of_range_in` names it), an integer of more
    than 4300 characters, and a string or key holding a lone surrogate (escaped,
    ``"\ud800"``: half of a UTF-16 pair, which UTF-8 cannot encode; msgspec said
    "Input data was truncated" or "invalid utf-16 surrogate pair"). Where msgspec said
    the text was cut short and ``json`` finds a fault before its end (a broken escape,
    ``"\u00"``), ``json``'s words and place are said; UTF-16 or UTF-32 text (which
    ``json`` reads, msgspec not: "invalid character (byte 0)") is said to be such text,
    as ``load_result`` says it of a file. ``None`` where none applies:
    msgspec's error stands. ``name`` is the path's root, or a function of the parsed
    document that says it (the type its ``"_type"`` names, for text read before any type
    is known; ``a message`` where ``json`` cannot parse the text to say it).

    Examples
    --------
    >>> print(parse_error(b'{"a": [1, "x\\udc00"]}', "Point", ValueError()))  # doctest: +ELLIPSIS
    Expected a string UTF-8 can encode, got 'x\udc00' holding a lone surrogate ... `Point.a[1]`
    >>> print(parse_error(b'["\\u00"]', "Point", ValueError("Input data was truncated")))
    Expected JSON text for Point, got invalid \uXXXX escape at line 1, column 4
    """
    import json  # noqa: PLC0415 - the error path only: start-up stays free of it

    wide = wide_encoding(text)
    if wide:  # msgspec: "invalid character (byte 0)", and the text shown as mojibake
        root = name if isinstance(name, str) else "a message"
        msg = (
            f"Expected UTF-8 JSON text for {root}, got {wide} text; save it as UTF-8 "
            f"(e.g. iconv -f {wide} -t UTF-8)"
        )
        return ValidationError(msg)
    try:
        tree = json.loads(
            text, parse_constant=_refuse_constant, parse_int=_integer, object_pairs_hook=_Pairs
        )
        root = name if isinstance(name, str) else name(dict(tree) if type(tree) is _Pairs else tree)
        found = _refused(tree, root)
    except json.JSONDecodeError as err:  # not JSON to json either
        if "truncated" not in str(refused) or err.pos >= len(err.doc):
            return None  # truly cut short, or msgspec's words say what is wrong
        root = name if isinstance(name, str) else "a message"
        said = err.msg[:1].lower() + err.msg[1:]
        msg = f"Expected JSON text for {root}, got {said} at line {err.lineno}, column {err.colno}"
        return ValidationError(msg)
    except (ValueError, RecursionError):  # a constant, bytes not UTF-8, too deep
        return None
    if found is None:
        return None
    path, value, what = found
    if what == "number":
        return out_of_range_in(tree, root)
    if what == "integer":
        msg = (
            f"Expected an integer of at most {_LONGEST_INTEGER} characters, got one of "
            f"{len(value)} ({value[:20]}...) - at `{path}`"
        )
    else:
        lone = ascii(lone_surrogate(value))[1:-1]
        msg = (
            f"Expected a {what} UTF-8 can encode, got {ascii(value)[:60]} holding a lone "
            f"surrogate ({lone}, half of a UTF-16 pair) - at `{path}`"
        )
    return ValidationError(msg, field=path)


def out_of_range_in(tree: object, name: str) -> ValidationError | None:
    """Name the field of the first infinity of a document ``json`` parsed, rooted at ``name``.

    In text that spells the infinities as strings (``"Infinity"``) and has no
    ``Infinity`` (not JSON), such as a message's or a saved result's skeleton, an
    infinite float is a number beyond float64 that ``json`` read as one. ``None`` where
    there is none.

    Examples
    --------
    >>> out_of_range_in({"a": [1.0, {"b": float("inf")}]}, "Point").field
    'Point.a[1].b'
    >>> out_of_range_in({"a": "Infinity"}, "Point") is None
    True
    """
    path = _beyond(tree, name)
    if path is None:
        return None
    msg = (
        "Expected a number within float64's range (about 1.8e308 either way), "
        f"got one beyond it - at `{path}`"
    )
    return ValidationError(msg, field=path)
