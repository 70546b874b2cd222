"""Documents the user points at, parsed with their nesting bounded: JSON, TOML, YAML.

Laws: the depth counted on the text is the depth of what ``json.loads`` builds, for any
document (strings holding brackets, quotes and backslashes included); nothing but the
package's :class:`~robot_msgs.errors.FormatError` escapes a parser, at any depth.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from robot_msgs.documents import (
    check_depth,
    json_depth,
    parse_json,
    parse_toml,
    parse_yaml,
    read_document,
)
from robot_msgs.errors import FormatError
from robot_msgs.files import write_atomic
from robot_msgs.limits import input_limits
from tests.hostile import deadline, deep_json, deep_toml, deep_yaml, fifo_with_writer

if TYPE_CHECKING:
    from pathlib import Path

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_the_depth_counted_on_the_text_is_the_depth_of_the_document(
    value: object, ascii_only: bool
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert json_depth(text) == _depth(value)
    assert json_depth(text.encode()) == _depth(value)


#: Text whose UTF-16 or UTF-32 bytes hold a quote or a bracket byte inside a character:
#: '∀' (U+2200) is 00 22 in UTF-16LE, '孛' (U+5B5B) 5B 5B, '“' (U+201C) 20 1C.
_WIDE_EXAMPLES = [["\u2200", [[[1]]]], {"\u5b5b": ["\u225b"]}, ["\u201c\U0001f600", [[]]]]


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES, st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"]))
@example(_WIDE_EXAMPLES[0], "utf-16-le")
@example(_WIDE_EXAMPLES[0], "utf-16-be")
@example(_WIDE_EXAMPLES[1], "utf-16")
@example(_WIDE_EXAMPLES[2], "utf-32")
def test_the_depth_of_wide_text_is_the_depth_of_its_document(value: object, encoding: str) -> None:
    """The bytes of UTF-16 and UTF-32 text were counted as UTF-8: ["∀", [[[1]]]] in
    UTF-16LE was 1 deep (the 22 of ∀ a quote), not 4."""
    data = json.dumps(value, ensure_ascii=False).encode(encoding)
    assert json.loads(data) == value  # json reads wide text, and so does parse_json
    assert json_depth(data) == _depth(value)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16", "utf-32"])
def test_nesting_hidden_in_wide_text_is_refused(encoding: str) -> None:
    """["∀", [[...]]] 101 deep in UTF-16LE was read whole past the bound of 64."""
    text = '["\u2200", ' + "[" * 100 + "]" * 100 + "]"
    with pytest.raises(FormatError, match=r"^w\.json: nested deeper than 64 levels"):
        parse_json(text.encode(encoding), source="w.json")


@pytest.mark.parametrize(
    ("parse", "text", "source"),
    [
        (parse_json, deep_json(200_000), "a.json"),
        (parse_toml, deep_toml(200_000), "a.toml"),
        (parse_yaml, deep_yaml(50_000), "a.yaml"),
        (parse_json, deep_json(64), "a.json"),  # 65 levels with the object
        (parse_toml, "a" + ".a" * 100 + " = 1\n", "a.toml"),  # dotted keys: tables 101 deep
        (parse_yaml, "a:\n" + "".join("  " * k + "- \n" for k in range(1, 80)), "a.yaml"),
    ],
)
def test_a_deep_document_is_refused_naming_the_file(parse: object, text: str, source: str) -> None:
    with (
        deadline(30),
        pytest.raises(FormatError, match=rf"^{source}: nested deeper than 64 levels"),
    ):
        parse(text, source=source)  # type: ignore[operator]


def test_documents_as_deep_as_the_bound_are_read() -> None:
    assert json_depth(json.dumps(parse_json(deep_json(63)))) == 64
    assert parse_toml("a = [[1]]") == {"a": [[1]]}
    with input_limits(max_depth=200):
        assert json_depth(json.dumps(parse_json(deep_json(150)))) == 151


def test_yaml_reads_plain_documents_and_names_an_alias_with_its_line() -> None:
    # parse_yaml's docstring examples (the core install's doctests have no PyYAML).
    assert parse_yaml("a: [1, 2]") == {"a": [1, 2]}
    with pytest.raises(FormatError, match=r"^t\.yaml: line 2: aliases \(\*name\) are not read; "):
        parse_yaml("a: &x [1]\nb: *x", source="t.yaml")


def test_yaml_aliases_are_refused_before_anything_is_built() -> None:
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + k)}: &{chr(98 + k)} [{', '.join(['*' + chr(97 + k)] * 9)}]\n" for k in range(8)
    )
    with pytest.raises(FormatError, match=r"^l\.yaml: line 2: aliases \(\*name\) are not read"):
        parse_yaml(laughs, source="l.yaml")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("x: 1\nx: 5\n", "'x'"),
        ("a:\n  b: 1\n  b: 2\n", "'b'"),
        ("- {x: 1, x: 2}\n", "'x'"),
        # As loaded, not as written (PyYAML kept the last of each, a review found):
        ("1: a\n1.0: b\n", "1.0"),
        ("yes: a\ntrue: b\n", "True"),
        ("~: a\nnull: b\n", "None"),
        ("0x10: a\n16: b\n", "16"),
    ],
)
def test_a_yaml_key_given_twice_is_refused_with_its_line(text: str, key: str) -> None:
    with pytest.raises(FormatError, match=rf"^t\.yaml: line \d+: key {re.escape(key)} given twice"):
        parse_yaml(text, source="t.yaml")


def test_yaml_keys_that_differ_as_loaded_are_two() -> None:
    """`1` and `'1'` are an int and a string: two keys (refused when keys were compared as
    written)."""
    assert parse_yaml("1: a\n'1': b\n") == {1: "a", "1": "b"}
    assert parse_yaml("a: {x: 1}\nb: [{x: 1}, {x: 2}]\n") == {
        "a": {"x": 1},
        "b": [{"x": 1}, {"x": 2}],
    }


@pytest.mark.parametrize("libyaml", [True, False])
def test_yaml_keys_as_written_are_their_text_with_their_line(
    monkeypatch: pytest.MonkeyPatch, libyaml: bool
) -> None:
    """YAML 1.1 reads the keys ``on``, ``no``, ``~`` as True, False, None (a transform
    file's ``FILE:on`` found no key on); as written they are names, compared as written."""
    yaml = pytest.importorskip("yaml")
    if not libyaml:
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    text = "on: 1\nno: 2\n~: 3\n0x10: 4\n1.0: 5\n'x': {yes: 6, true: 7}\n"
    data = parse_yaml(text, source="t.yaml", keys_as_written=True)
    assert data == {"on": 1, "no": 2, "~": 3, "0x10": 4, "1.0": 5, "x": {"yes": 6, "true": 7}}
    assert [key.line for key in data] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(FormatError, match=r"^t\.yaml: line 5: key 1\.0 given twice"):
        parse_yaml(text, source="t.yaml")  # as loaded, on is True: 1 and 1.0 too
    with pytest.raises(FormatError, match=r"^t\.yaml: line 2: key '1' given twice"):
        parse_yaml("1: a\n'1': b\n", source="t.yaml", keys_as_written=True)


def test_json_bytes_not_utf8_are_said_so() -> None:
    """json's UnicodeDecodeError is a ValueError: it was said as an integer of more than
    4300 digits (bench's summary.json, read as bytes)."""
    with pytest.raises(
        FormatError, match=r"^a\.json: expected UTF-8 JSON text, got byte 0xff at 7$"
    ):
        parse_json(b'{"a": "\xff"}', source="a.json")


def test_integers_too_long_to_convert_are_format_errors() -> None:
    digits = "9" * 5000
    with pytest.raises(
        FormatError,
        match=r"^a\.json: expected JSON numbers, got an integer of more than 4300 digits$",
    ):
        parse_json(f'{{"a": {digits}}}', source="a.json")
    with pytest.raises(FormatError, match=r"^a\.toml: invalid TOML"):
        parse_toml(f"a = {digits}", source="a.toml")
    with pytest.raises(FormatError, match=r"^a\.yaml: invalid YAML"):
        parse_yaml(f"a: {digits}", source="a.yaml")


def test_check_depth_walks_without_recursion() -> None:
    deep: list[object] = []
    node = deep
    for _ in range(100_000):
        child: list[object] = []
        node.append(child)
        node = child
    with pytest.raises(FormatError, match=r"^x: nested deeper than 64 levels"):
        check_depth(deep, source="x")
    check_depth({"a": [1, {"b": 2}]}, source="x")
    check_depth(3, source="x")


def test_read_document_reads_a_fifo_and_refuses_a_device_and_a_large_file(tmp_path: Path) -> None:
    with fifo_with_writer(tmp_path / "m.toml", b"a = 1\n") as fifo, deadline(10):
        assert parse_toml(read_document(fifo), source=str(fifo)) == {"a": 1}
    with pytest.raises(FormatError, match=r"^/dev/zero: is a character device"):
        read_document("/dev/zero")
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 100 + "1]")
    with (
        input_limits(max_document=100),
        pytest.raises(FormatError, match=r"big\.json: is 203 bytes"),
    ):
        read_document(big)


def test_an_output_path_with_a_trailing_slash_is_refused(tmp_path: Path) -> None:
    from robot_msgs.errors import OutputPathError

    with pytest.raises(OutputPathError, match=r"X/: ends in '/', so it names a folder"):
        write_atomic(f"{tmp_path}/X/", "data")
    assert not (tmp_path / "X").exists()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_a_document_in_utf16_or_utf32_is_said_to_be_one(tmp_path: Path, encoding: str) -> None:
    """PowerShell's > writes UTF-16: a manifest said 'undecodable bytes' (a review)."""
    path = tmp_path / "runs.toml"
    path.write_bytes('[[runs]]\nname = "é"\n'.encode(encoding))
    name = encoding.upper().replace("-LE", "LE")
    with pytest.raises(FormatError, match=rf"runs\.toml: the file is {name} text, not UTF-8"):
        read_document(path, what="manifest")
    path.write_bytes(b"a = \xff\n")  # not text in any encoding: as before
    with pytest.raises(FormatError, match=r"expected a UTF-8 manifest, got undecodable bytes"):
        read_document(path, what="manifest")


@pytest.mark.parametrize(
    ("data", "byte"),
    [(b"a = \xff\n", 4), (b"\xef\xbb\xbfa = \xff\n", 7), (b"\xef\xbb\xbf\xff", 3)],
)
def test_an_undecodable_byte_is_named_by_its_place_in_the_file(
    tmp_path: Path, data: bytes, byte: int
) -> None:
    """After a byte-order mark the byte was counted from the mark's end (utf-8-sig's
    place): the 0xff at byte 7 of the file was said to be at byte 4."""
    path = tmp_path / "m.toml"
    path.write_bytes(data)
    with pytest.raises(
        FormatError, match=rf"undecodable bytes \(invalid start byte at byte {byte}\)$"
    ):
        read_document(path)


def test_a_yaml_document_is_parsed_by_libyaml_when_pyyaml_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """parse_yaml walked and loaded with PyYAML's Python parser, about 80 KB/s: a 4.5 MB
    transform file of 300,000 keys took 59 s (the speed is measured in the commit, not
    here). It now parses with libyaml's loader, and reads what the Python loader reads."""
    yaml = pytest.importorskip("yaml")
    if getattr(yaml, "CSafeLoader", None) is None:
        pytest.skip("PyYAML built without libyaml")
    made: list[str] = []

    class Spy(yaml.CSafeLoader):  # type: ignore[misc, name-defined]
        def __init__(self, stream: str) -> None:
            made.append(type(self).__name__)
            super().__init__(stream)

    monkeypatch.setattr(yaml, "CSafeLoader", Spy)
    text = "".join(f"k{i}: [{i}, {i}.5, x{i}]\n" for i in range(200))
    assert parse_yaml(text, source="long.yaml") == yaml.load(text, Loader=yaml.SafeLoader)
    assert made, "libyaml's loader was not used"


@pytest.mark.parametrize(
    "text",
    [
        "a:\t1\n",
        "[1,\t2]\n",
        "a: 1\t# note\n",
        "\ufeff\ufeffa: 1\n",
        "? !\n: 1\n",
        "a: !\n",
        "a: |-# note\n  x\n",
        "[a?b]\n",
        "{a: b?}\n",
        "[a\nb ?c]\n",
    ],
)
def test_a_yaml_document_reads_the_same_with_or_without_libyaml(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """libyaml read a tab as a separator (the Python parser refuses it), dropped a second
    byte-order mark, read a lone ``!`` tag as '' and took ``|#``: a transform file loaded where
    PyYAML has libyaml and was refused, or read otherwise, where it has not."""
    yaml = pytest.importorskip("yaml")

    def read() -> tuple[str, object]:
        try:
            return "read", parse_yaml(text, source="t.yaml")
        except FormatError as err:
            return "refused", str(err)

    with_libyaml = read()
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    assert with_libyaml == read()


#: Pieces of YAML (indicators, breaks, escapes, tags, block headers, odd characters)
#: whose joins the two loaders below are compared on.
_YAML_PIECES = [
    *" \t\n\r:-?[]{},#&*!|>'\"%@`ab01.~=<\\",
    *["\ufeff", "\x85", "\u2028", "\u2029", "\x00", "\x7f", "\ue000", "\U0001f600", "\xa0"],
    *["---", "...", "!!str", "!!", "%YAML 1.2", "%TAG ! tag:x,", "<<", "0x1", ".inf"],
    *["\\x41", "\\u0041", "\\N", "\\_", "\\L", "\\P", "\\e", "\\/", "\\\t", "  ", "\n  "],
    *["\n- ", ": ", "? ", "|2", ">+", "|-", "\r\n", "&a ", "*a", "!a!b", "!<tag:x>", "!<!>"],
]


def _reading(text: str) -> tuple[str, object]:
    """Return what :func:`parse_yaml` makes of ``text``: its value, or the error it says."""
    try:
        return "read", parse_yaml(text, source="t.yaml")
    except FormatError as err:
        return "refused", str(err)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(st.lists(st.sampled_from(_YAML_PIECES), max_size=25).map("".join))
def test_generated_yaml_reads_the_same_with_or_without_libyaml(text: str) -> None:
    """Compared on generated documents, libyaml and PyYAML's Python parser differed on 1
    in 27 (a tab, a second byte-order mark, a lone ``!``, ``|#``); 31,070 documents
    (150 s) found none through parse_yaml. Derandomized: the same 300 in every run."""
    yaml = pytest.importorskip("yaml")
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is None:
        pytest.skip("PyYAML without libyaml")
    with_libyaml = _reading(text)
    del yaml.CSafeLoader
    try:
        assert with_libyaml == _reading(text)
    finally:
        yaml.CSafeLoader = fast
