"""Documents: TOML, JSON and YAML read from untrusted files, bounded and depth-checked.

:func:`read_document` reads a manifest, a settings file or a saved result as UTF-8 text
within the read limit (a byte-order mark skipped, wide text refused by name);
:func:`parse_toml`, :func:`parse_json` and :func:`parse_yaml` parse it with every key
given once and no structure nested deeper than the depth limit
(:func:`~robot_msgs.limits.current_limits`), their errors naming the file and the place.
:func:`json_depth` measures a JSON text's nesting before any parser recurses into it.

WHY a module apart from :mod:`robot_msgs.files`: reading documents and writing outputs
atomically are two ideas; they shared one 1,064-line module.
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
from typing import TYPE_CHECKING, Any

from robot_msgs.errors import FormatError, shown_token
from robot_msgs.limits import current_limits

if TYPE_CHECKING:
    import os

__all__ = [
    "check_depth",
    "json_depth",
    "json_kind",
    "parse_json",
    "parse_toml",
    "parse_yaml",
    "read_document",
    "wide_text_error",
]

_QUOTE = ord('"')
_BACKSLASH = ord("\\")
_OPEN = (ord("["), ord("{"))
_CLOSE = (ord("]"), ord("}"))
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')


def parse_toml(text: str, *, source: str = "<toml>") -> dict[str, Any]:
    r"""Parse the TOML document ``text`` to a dict: ``tomllib`` (Python 3.11+) or ``tomli`` (3.10).

    Raises
    ------
    FormatError
        Invalid TOML (``TOMLDecodeError``'s message gives line and column), nesting
        deeper than ``max_depth`` (:mod:`robot_msgs.limits`), an integer too long to
        convert; the message starts with ``source``.

    Examples
    --------
    >>> parse_toml('a = 1\n[b]\nc = "x"')
    {'a': 1, 'b': {'c': 'x'}}
    >>> parse_toml("a = " + "[" * 100 + "]" * 100, source="m.toml")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: m.toml: nested deeper than 64 levels (arrays and tables)...
    >>> parse_toml("a" + ".a" * 100_000 + " = 1", source="m.toml")  # a dotted key: no O(N^2)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: m.toml: nested deeper than 64 levels (arrays and tables)...
    """
    # A dotted key of N parts is N nested tables, which tomllib builds in O(N^2): a 200 KB
    # key `a.a.a...` took minutes. Keys are counted first, per line, before the `=`.
    limit = current_limits().max_depth
    for line in text.splitlines():
        key = line.split("=", 1)[0]
        if key.count(".") >= limit and not key.lstrip().startswith("#"):
            raise _too_deep(source)
    # tomli is a dependency on Python 3.10 only (pyproject: tomli>=2; python_version<'3.11').
    module = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    try:
        data: dict[str, Any] = module.loads(text)
    except RecursionError as err:
        raise _too_deep(source) from err
    except ValueError as err:  # TOMLDecodeError, or an integer of more than 4300 digits
        msg = f"{source}: invalid TOML: {_short(str(err))}"
        raise FormatError(msg) from err
    check_depth(data, source=source)
    return data


def read_document(path: str | os.PathLike[str], *, what: str = "file") -> str:
    r"""Read a small document the user points at (a manifest, ``meta.json``, a transform file).

    Read as an input (:func:`robot_msgs.io.bounded.read_input`: a pipe once, a device
    refused), at most ``max_document`` bytes (:mod:`robot_msgs.limits`), decoded as
    UTF-8 with an optional byte-order mark.

    Raises
    ------
    FormatError
        A device; larger than the bound; not UTF-8 (the byte named).
    FileNotFoundError, IsADirectoryError, PermissionError
        As :func:`~robot_msgs.io.bounded.read_input`.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "m.toml"
    >>> _ = path.write_bytes(b"\xef\xbb\xbfa = 1\n")
    >>> read_document(path)
    'a = 1\n'
    >>> _ = path.write_bytes(b"a = \xff")
    >>> read_document(path, what="manifest")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: .../m.toml: expected a UTF-8 manifest, got undecodable bytes ...
    """
    from robot_msgs.io.bounded import read_input  # noqa: PLC0415 - io imports this module

    data = read_input(path, document=True)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        wide = wide_text_error(data, source=str(path))
        if wide is not None:
            raise wide from err
        start = err.start + (len(data) - len(err.object))  # utf-8-sig counts from the mark
        msg = (
            f"{path}: expected a UTF-8 {what}, got undecodable bytes ({err.reason} at byte {start})"
        )
        raise FormatError(msg) from err


#: JSON's names of the values :func:`parse_json` returns, by Python type.
_JSON_KINDS = {
    dict: "object", list: "array", str: "string", int: "number", float: "number",
    bool: "boolean", type(None): "null",
}  # fmt: skip


def json_kind(value: object) -> str:
    """Name a parsed JSON value as JSON does: ``object``, ``array``, ``string``, ``null``...

    A file's reader says what the file held in the file's terms, not Python's (``dict``,
    ``NoneType``).

    Examples
    --------
    >>> json_kind({}), json_kind([1]), json_kind(None), json_kind(True), json_kind(2.5)
    ('object', 'array', 'null', 'boolean', 'number')
    """
    return _JSON_KINDS.get(type(value), type(value).__name__)


def wide_text_error(data: bytes, *, source: str) -> FormatError | None:
    """Say that ``data`` is UTF-16 or UTF-32 text, not UTF-8, naming iconv's encoding; or None.

    Such text starts with a byte-order mark or with NULs beside ASCII
    (:func:`json.detect_encoding`); only text that decodes whole, or whole but a last
    character cut short, is said to be one (:func:`~robot_msgs.msg.json_text.wide_encoding`).
    PowerShell's ``>`` writes UTF-16 (a result of ``ape --save -``, a manifest, a log
    redirected there). Line-based trajectory files have their own test, on a file's head
    (:func:`robot_msgs.io.table.text_problem`).

    Examples
    --------
    >>> print(wide_text_error('{"a": 1}'.encode("utf-16-le"), source="r.json"))
    r.json: the file is UTF-16LE text, not UTF-8; save it as UTF-8 (e.g. iconv -f UTF-16LE -t UTF-8)
    >>> wide_text_error(b'{"a": 1}', source="r.json") is None
    True
    """
    from robot_msgs.msg.json_text import wide_encoding  # noqa: PLC0415 - the error path only

    name = wide_encoding(data)
    if not name:
        return None
    try:
        data.decode(name)
    except UnicodeDecodeError:
        cut = " (cut short: its last character is not whole)"
    else:
        cut = ""
    msg = (
        f"{source}: the file is {name} text{cut}, not UTF-8; save it as UTF-8 "
        f"(e.g. iconv -f {name} -t UTF-8)"
    )
    return FormatError(msg)


def parse_json(text: str | bytes, *, source: str = "<json>", constants: bool = True) -> Any:
    """Parse the JSON document ``text``, its nesting bounded before the parser runs.

    The depth is counted on the text first (:func:`json_depth`, vectorised), so no parser
    recurses past ``max_depth`` (:mod:`robot_msgs.limits`). ``NaN``, ``Infinity`` and
    ``-Infinity``, which JSON has not, are read as floats (as ``json`` does: evo writes
    them), or, with ``constants=False``, refused, for text the package wrote
    (:mod:`robot_msgs.strict_json`), which spells them ``null`` and ``"Infinity"``.

    A UTF-8 byte-order mark at the start is ignored, in bytes or a str, as on every road
    that reads JSON text (:data:`robot_msgs.msg.json_text.BOM`).

    Raises
    ------
    FormatError
        Invalid JSON (``source:line:column`` and what was expected), nesting deeper than
        ``max_depth``, an integer of more than 4300 digits, a key given twice in one
        object (``json`` would keep the last), ``NaN`` or an infinity without
        ``constants``.

    Examples
    --------
    >>> parse_json('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> parse_json('{"a": 1,}', source="m.json")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: m.json:1:9: expected JSON, got Expecting property name ...
    """
    import json  # noqa: PLC0415 - only where a document is read: not on every command

    if isinstance(text, str):  # a byte-order mark is ignored (RFC 8259 §8.1), as json does
        text = text.removeprefix("\ufeff")  # in bytes: in a str it refuses it
    if json_depth(text) > current_limits().max_depth:
        raise _too_deep(source)

    def refused(name: str) -> float:
        msg = (
            f"{source}: expected JSON, got {name}, which JSON has not (the package writes "
            'NaN as null and the infinities as "Infinity" and "-Infinity")'
        )
        raise FormatError(msg)

    try:
        tree = json.loads(text) if constants else json.loads(text, parse_constant=refused)
    except json.JSONDecodeError as err:
        msg = f"{source}:{err.lineno}:{err.colno}: expected JSON, got {err.msg}"
        raise FormatError(msg) from err
    except RecursionError as err:  # pragma: no cover - json_depth refused it first
        raise _too_deep(source) from err
    except UnicodeDecodeError as err:  # bytes: a ValueError, not an integer too long
        byte = err.object[err.start]
        msg = f"{source}: expected UTF-8 JSON text, got byte {byte:#04x} at {err.start}"
        raise FormatError(msg) from err
    except ValueError as err:  # an integer of more than 4300 digits (sys.int_info)
        if isinstance(err, FormatError):  # a constant refused
            raise
        digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
        msg = f"{source}: expected JSON numbers, got an integer of more than {digits} digits"
        raise FormatError(msg) from err
    # WHY after the parse, in one walk over the text, not json's object_pairs_hook: the
    # check messages' JSON text has (msg/json_text, C), one rule on one road; as fast on a
    # 29 MB saved result (0.31 s min of 11, the walk 7 ms), faster on small objects
    # (36 MB of them: 0.90 s for 1.07 s), on 2 shared cores
    from robot_msgs.msg.json_text import repeated_key  # noqa: PLC0415 - as json, above

    twice = repeated_key(_utf8_json(text))
    if twice is not None:  # json.loads keeps the last of two: a silent choice
        msg = f"{source}: key {twice!r:.60} given twice in one object: which one is meant?"
        raise FormatError(msg)
    return tree


def _utf8_json(text: str | bytes) -> bytes:
    """Return JSON ``json.loads`` has taken as UTF-8 (lone surrogates as written)."""
    if isinstance(text, bytes):
        return _as_utf8(text)  # json reads UTF-16 and UTF-32 too
    return text.encode("utf-8", "surrogatepass")


def _as_utf8(data: bytes) -> bytes:
    """Return JSON bytes as UTF-8: UTF-16 or UTF-32 text, which ``json`` reads, re-encoded.

    Found as :func:`json.detect_encoding` finds it (a byte-order mark, NULs beside
    ASCII). A wide character's bytes may be a quote or a bracket (``∀``, U+2200, is
    ``00 22`` in UTF-16LE), so structure is found in the text, not in those bytes.
    Bytes that do not decode whole are returned as they are (the parser refuses them).
    """
    head = data[:4]
    if b"\x00" not in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data  # UTF-8: json.detect_encoding says so of every other start
    import json  # noqa: PLC0415 - as in parse_json

    encoding = json.detect_encoding(data)
    if encoding.startswith("utf-8"):
        return data
    try:
        return data.decode(encoding, "surrogatepass").encode("utf-8", "surrogatepass")
    except UnicodeDecodeError:  # binary data that merely starts with a NUL
        return data


class _TwiceError(Exception):
    """A YAML mapping holds a key twice (as loaded: ``1`` and ``1.0``, ``yes`` and ``true``)."""

    def __init__(self, key: object, line: int) -> None:
        super().__init__(key, line)
        self.key, self.line = key, line


class _NumberError(Exception):
    """A plain YAML scalar that YAML 1.1 reads as a number and the caller's rule does not."""

    def __init__(self, value: str, loaded: object, line: int) -> None:
        super().__init__(value, loaded, line)
        self.value, self.loaded, self.line = value, loaded, line


class WrittenKey(str):
    """A YAML mapping key as written (``on``, not YAML 1.1's ``True``), and its line.

    What :func:`parse_yaml` gives as keys with ``keys_as_written``; it is the ``str`` it
    spells, and ``line`` is the file line it starts on (1-based).
    """

    __slots__ = ("line",)
    line: int


#: The tag a scalar key is read by with ``keys_as_written``: its text, as written.
_WRITTEN_KEY = "tag:robot-msgs,2026:written-key"


@functools.cache
def _unique_keys_loader(
    yaml: Any, base: Any, numbers: re.Pattern[str] | None = None, *, keys_as_written: bool = False
) -> Any:
    """PyYAML's safe loader ``base``, refusing a key its mapping holds already (it keeps the last).

    The keys are compared as loaded, not as written: ``1`` and ``1.0``, ``yes`` and
    ``true``, ``~`` and ``null`` are one key each; ``1`` and ``'1'`` are two. With
    ``numbers``, plain scalars follow that rule (:func:`parse_yaml`). With
    ``keys_as_written``, a scalar key is its text (:class:`WrittenKey`), compared so.
    """

    class Loader(base):  # type: ignore[misc]
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:  # noqa: FBT001, FBT002
            if isinstance(node, yaml.MappingNode):
                self.flatten_mapping(node)
                seen: set[object] = set()
                for key_node, _ in node.value:
                    if keys_as_written and isinstance(key_node, yaml.ScalarNode):
                        key_node.tag = _WRITTEN_KEY  # after flatten_mapping: "<<" merged
                    key = self.construct_object(key_node, deep=True)
                    try:
                        twice = key in seen
                        seen.add(key)
                    except TypeError:  # unhashable: refused by the SafeLoader itself
                        continue
                    if twice:
                        raise _TwiceError(key, key_node.start_mark.line + 1)
            return super().construct_mapping(node, deep=deep)

    if numbers is not None:

        def number(loader: Any, node: Any) -> Any:
            int_tag = node.tag == "tag:yaml.org,2002:int"
            loaded = (loader.construct_yaml_int if int_tag else loader.construct_yaml_float)(node)
            if numbers.fullmatch(node.value) is None:
                raise _NumberError(node.value, loaded, node.start_mark.line + 1)
            # 010: 10 as the rule reads it, where YAML 1.1 read 8; an integer stays one
            # (EuRoC's sensor.yaml counts its T_BS ``rows: 4``)
            return int(node.value) if int_tag else float(node.value)

        def text(loader: Any, node: Any) -> Any:
            value = loader.construct_yaml_str(node)
            if not node.style and numbers.fullmatch(value) is not None:  # plain: None or ""
                return float(value)  # 1e-08: a number, which YAML 1.1 leaves a string
            return value

        Loader.add_constructor("tag:yaml.org,2002:int", number)
        Loader.add_constructor("tag:yaml.org,2002:float", number)
        Loader.add_constructor("tag:yaml.org,2002:str", text)
    if keys_as_written:

        def written(_loader: Any, node: Any) -> WrittenKey:
            key = WrittenKey(node.value)
            key.line = node.start_mark.line + 1
            return key

        Loader.add_constructor(_WRITTEN_KEY, written)
    return Loader


def parse_yaml(
    text: str,
    *,
    source: str = "<yaml>",
    numbers: re.Pattern[str] | None = None,
    keys_as_written: bool = False,
) -> Any:
    r"""Parse the YAML document ``text`` with PyYAML's safe loader, nesting and aliases bounded.

    The document's events are walked first (no recursion): nesting deeper than
    ``max_depth`` and aliases (``*name``, which can multiply a document's size: "billion
    laughs") are refused before anything is built.

    ``numbers``, a caller's rule for numbers (the transform files pass the trajectory
    readers' ``io.table.NUMBER_TOKEN``): a plain scalar YAML 1.1 reads as a number must
    match it whole (``1_000``, ``0x10`` and ``1:30``, which YAML 1.1 reads as 1000, 16
    and 90, are refused naming the line), and a plain scalar matching it is the number
    Python reads (``1e-08``: a float, which YAML 1.1 leaves a string; ``010``: the
    integer 10, which YAML 1.1 reads as 8).

    ``keys_as_written``: a scalar key is its text (a :class:`WrittenKey`, with its line),
    as a name is: ``on:``, ``no:`` and ``1.0:`` are the keys ``'on'``, ``'no'`` and
    ``'1.0'``, where YAML 1.1 makes them ``True``, ``False`` and ``1.0``; keys given
    twice are compared as written.

    Raises
    ------
    FormatError
        Invalid YAML, too deep, an alias, an integer too long to convert, a key given
        twice in one mapping, a number outside ``numbers``.
    MissingDependencyError
        PyYAML is not installed (the ``yaml`` extra).

    Examples
    --------
    With the ``yaml`` extra (``tests/test_files_documents.py`` runs them; the core
    install's doctests cannot)::

        parse_yaml("a: [1, 2]")  # {'a': [1, 2]}
        parse_yaml("a: &x [1]\nb: *x", source="t.yaml")
        # FormatError: t.yaml: line 2: aliases (*name) are not read; write the value out
    """
    from robot_msgs.optional import require  # noqa: PLC0415 - the yaml extra

    yaml = require("yaml", "yaml", feature="YAML files")
    # WHY libyaml first: PyYAML's Python parser reads about 80 KB/s (a 4.5 MB transform
    # file of 300,000 keys: 17 s of events and 42 s of loading, measured), so a document
    # within ``max_document`` (16 MiB) held a command for minutes; libyaml parses the same
    # events 17 times faster. A document it calls invalid is read again by the Python
    # parser, whose messages (and depth check, before libyaml's own at 1000) are ours;
    # so is a document holding what libyaml reads otherwise (_LIBYAML_READS_OTHERWISE).
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None and not _LIBYAML_READS_OTHERWISE.search(text):
        try:
            loader = _unique_keys_loader(yaml, fast, numbers, keys_as_written=keys_as_written)
            return _load_yaml(yaml, fast, loader, text, source)
        except FormatError as err:
            if not isinstance(err.__cause__, yaml.YAMLError):
                raise
    base = yaml.SafeLoader
    loader = _unique_keys_loader(yaml, base, numbers, keys_as_written=keys_as_written)
    return _load_yaml(yaml, base, loader, text, source)


_LIBYAML_READS_OTHERWISE = re.compile("[\t\ufeff!?]|[|>][-+0-9]*#")
r"""What libyaml reads otherwise than PyYAML's Python parser, so a document holding it is
read by the Python parser alone: one document, one reading, with or without libyaml.

WHY: libyaml takes a tab as a separator (``a:\t1`` is ``{'a': 1}``; the Python parser
refuses it, as robot_msgs did), drops a byte-order mark inside the stream (a key
``\ufeffa`` became ``a``), reads a lone ``!`` tag as ``''`` (Python: ``None``), a
block scalar's ``|#`` as ``|`` and a comment and a ``?`` in a plain scalar of a flow
collection as part of it (``[a?b]`` is ``['a?b']``; the Python parser refuses both);
found by comparing the two on 100,000 random documents (a review; ``?``: 88,854 more).
"""


def _load_yaml(yaml: Any, base: Any, loader: Any, text: str, source: str) -> Any:
    """Run :func:`parse_yaml`: walk with the PyYAML loader ``base``, load with ``loader``."""
    limit = current_limits().max_depth
    try:
        depth = 0
        for event in yaml.parse(text, Loader=base):
            if isinstance(event, yaml.AliasEvent):
                line = event.start_mark.line + 1
                msg = f"{source}: line {line}: aliases (*name) are not read; write the value out"
                raise FormatError(msg)
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > limit:
                    raise _too_deep(source)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        return yaml.load(text, Loader=loader)
    except _NumberError as err:
        msg = (
            f"{source}: line {err.line}: {shown_token(err.value)} is not a number as the "
            f"trajectory files write them (YAML 1.1 reads it as {err.loaded!r:.40}); write "
            "decimal digits (1000, -0.5, 1.5e-3)"
        )
        raise FormatError(msg) from err
    except _TwiceError as err:
        msg = (
            f"{source}: line {err.line}: key {err.key!r:.60} given twice in one mapping: "
            "which one is meant?"
        )
        raise FormatError(msg) from err
    except yaml.YAMLError as err:
        msg = f"{source}: invalid YAML ({_short(str(err), 200)})"
        raise FormatError(msg) from err
    except RecursionError as err:  # pragma: no cover - the event walk refused it first
        raise _too_deep(source) from err
    except ValueError as err:
        if isinstance(err, FormatError):
            raise
        msg = f"{source}: invalid YAML ({_short(str(err))})"
        raise FormatError(msg) from err


def json_depth(text: str | bytes) -> int:
    r"""Return the nesting depth of JSON ``text`` (brackets and braces outside strings).

    Counted with whole-array operations over the brackets and quotes of the text (about
    0.6 s for 170 MB of numbers, a tenth of ``json.loads``), whatever the depth. Escaped
    quotes are blanked first, so only the quotes that open and close strings remain; a
    bracket inside a string does not count. UTF-16 and UTF-32 bytes, which ``json``
    reads, are counted as the text they encode (re-encoded as UTF-8).

    Examples
    --------
    >>> json_depth('{"a": [[1], {"b": "[[[["}]}'), json_depth("1"), json_depth('"\\"]"')
    (3, 0, 0)
    """
    import numpy as np  # noqa: PLC0415 - start-up time: files.py is imported by every command

    data: bytes | bytearray = (
        text.encode("utf-8", "surrogatepass") if isinstance(text, str) else _as_utf8(text)
    )
    if b"\\" in data:  # blank the escaped quotes (\"), so each quote left opens or closes
        view = np.frombuffer(data, dtype=np.uint8)
        slashes = np.flatnonzero(view == _BACKSLASH)
        first = np.ones(slashes.size, dtype=bool)
        first[1:] = np.diff(slashes) != 1
        starts = np.maximum.accumulate(np.where(first, np.arange(slashes.size), 0))
        escaped = slashes[((np.arange(slashes.size) - starts) & 1) == 0] + 1
        escaped = escaped[escaped < view.size]
        quoted = escaped[view[escaped] == _QUOTE]
        if quoted.size:
            data = bytearray(data)
            np.frombuffer(data, dtype=np.uint8)[quoted] = ord(" ")
    # Only the brackets and the quotes matter: dropping every other byte (C speed) leaves
    # a few percent of a file of numbers for the array operations.
    marks = np.frombuffer(data.translate(None, _NOT_STRUCTURE), dtype=np.uint8)
    quote = marks == _QUOTE
    outside = (np.cumsum(quote, dtype=np.int64) & 1) == 0
    opens = (marks == _OPEN[0]) | (marks == _OPEN[1])
    closes = (marks == _CLOSE[0]) | (marks == _CLOSE[1])
    levels = np.cumsum((opens & outside).astype(np.int64) - (closes & outside))
    return int(levels.max()) if levels.size else 0


def check_depth(tree: Any, *, source: str) -> None:
    """Refuse a parsed document nested deeper than ``max_depth`` (walked without recursion).

    Examples
    --------
    >>> check_depth({"a": [[1]]}, source="x")
    >>> deep: list[object] = []
    >>> node = deep
    >>> for _ in range(100):
    ...     node.append([]); node = node[0]
    >>> check_depth(deep, source="x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: x: nested deeper than 64 levels ...
    """
    limit = current_limits().max_depth
    pending: list[tuple[Any, int]] = [(tree, 1)] if isinstance(tree, dict | list) else []
    while pending:
        node, depth = pending.pop()
        if depth > limit:
            raise _too_deep(source)
        children = node.values() if isinstance(node, dict) else node
        pending.extend((c, depth + 1) for c in children if isinstance(c, dict | list))


def _too_deep(source: str) -> FormatError:
    limit = current_limits().max_depth
    msg = (
        f"{source}: nested deeper than {limit} levels (arrays and tables); no file "
        "robot_msgs reads needs that many"
    )
    return FormatError(msg)


def _short(text: object, most: int = 120) -> str:
    """``str(text)`` on one line, cut to ``most`` characters: a parser's message, not the file."""
    line = " ".join(str(text).split())
    return line if len(line) <= most else line[: most - 3] + "..."
