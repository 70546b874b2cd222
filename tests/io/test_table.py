"""The text-table core: comment stripping must equal the regex it short-cuts."""

from __future__ import annotations

import re

import msgspec
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from robot_msgs.errors import FormatError
from robot_msgs.io.table import (
    _FEW_COMMENTS,
    NUMBER_TOKEN,
    _strip_comments,
    format_rows,
    parse_table,
)

_REGEX = re.compile(r"#[^\n]*")

#: Floats at the edges of repr's forms: signed zero, subnormals, the extremes, whole
#: numbers, and each side of 1e-4 and 1e16, where repr starts writing an exponent.
_EDGE_FLOATS = st.sampled_from(
    [
        *(0.0, -0.0, 5.0, -3.0, 1e-300, 1e300, 5e-324, -2.225e-308, 2.2250738585072014e-308),
        *(1.7976931348623157e308, 1e-4, 9.999999999999999e-05, 1e16, 9999999999999998.0),
        *(2.0**53, 0.1, 1.6e9 + 0.123456789, float("nan"), float("inf"), -float("inf")),
    ]
)


@given(st.text(alphabet="#\n\r 1a", max_size=200))
def test_strip_comments_equals_the_regex_substitution(text: str) -> None:
    assert _strip_comments(text) == _REGEX.sub("", text)


def test_strip_comments_hands_many_comments_to_the_regex() -> None:
    for count in (_FEW_COMMENTS - 1, _FEW_COMMENTS, _FEW_COMMENTS + 1, 3 * _FEW_COMMENTS):
        text = "# header\n" + "1 2 # note\n#\n" * count + "3 4 #"
        assert _strip_comments(text) == _REGEX.sub("", text)


def test_header_and_line_end_comments_keep_line_numbers() -> None:
    table = parse_table("# t x\n1 2 # a\n\n# b\n3 4\n", source="a.txt", columns=("t", "x"))
    assert table.values.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert table.line_numbers(np.array([0, 1])) == [2, 5]


def test_a_one_column_file_of_rows_too_wide_says_one_column() -> None:
    """A KITTI times file given a TUM file was told "expected 1 columns (t), got 8"."""
    with pytest.raises(FormatError, match=r"^t\.txt, line 1: expected 1 column \(t\), got 8$"):
        parse_table("1 2 3 4 5 6 7 8\n", source="t.txt", columns=("t",))


def test_a_lone_carriage_return_after_one_field_says_one_field() -> None:
    """A times file whose line ends in CR and blanks was told "(1 fields)"."""
    with pytest.raises(FormatError, match=r"only blanks after it on the line \(1 field\);"):
        parse_table("0.5\r  \n1.0\n", source="t.txt", columns=("t",))


@given(
    st.integers(1, 5).flatmap(
        lambda cols: st.lists(
            st.lists(_EDGE_FLOATS | st.floats(width=64), min_size=cols, max_size=cols),
            min_size=1,
            max_size=12,
        )
    ),
    st.sampled_from([" ", ",", ", "]),
    st.booleans(),
)
def test_format_rows_writes_each_float_as_its_repr(
    rows: list[list[float]], separator: str, ints: bool
) -> None:
    """The fast road (msgspec) writes the bytes of ``repr``, one number at a time."""
    leading = [(-1) ** k * 10**18 + k for k in range(len(rows))] if ints else None
    expected = "".join(
        separator.join([*([str(leading[k])] if leading else []), *map(repr, row)]) + "\n"
        for k, row in enumerate(rows)
    )
    given_ints = np.array(leading, dtype=np.int64) if leading else None
    assert format_rows(np.array(rows), separator=separator, leading_ints=given_ints) == expected


def test_format_rows_writes_the_rows_of_every_block_in_order() -> None:
    """Tables longer than one block (4096 rows) are written block by block, every row once."""
    rows = np.random.default_rng(0).normal(size=(3 * 4096 + 5, 3)) * [1.0, 1e-5, 1e17]
    stamps = np.arange(len(rows), dtype=np.int64) * 10**9
    lines = zip(stamps.tolist(), rows.tolist(), strict=True)
    expected = "".join(f"{t},{x!r},{y!r},{z!r}\n" for t, (x, y, z) in lines)
    assert format_rows(rows, separator=",", leading_ints=stamps) == expected


def test_format_rows_writes_a_separator_that_is_not_ascii() -> None:
    """A non-ASCII separator (any text, as the old ``%r`` road took) raised UnicodeDecodeError."""
    rows = np.array([[1.5, 1e-9], [-0.0, 2.0]])
    assert format_rows(rows, separator=" → ") == "1.5 → 1e-09\n-0.0 → 2.0\n"
    ints = np.array([7, -8], dtype=np.int64)
    assert format_rows(rows, separator="·", leading_ints=ints) == "7·1.5·1e-09\n-8·-0.0·2.0\n"


def test_format_rows_writes_a_block_mostly_below_1e_4_without_msgspec(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cells msgspec does not write as repr are spliced in one by one: a block of them all
    (tiny residuals) took 1.9x the old ``%r`` road, so such a block goes by ``%r`` alone."""
    rows = np.random.default_rng(1).normal(size=(50, 7)) * 1e-6
    rows[::10, 0] = 0.5  # 5 of 350 cells msgspec would write
    expected = "".join(" ".join(map(repr, row)) + "\n" for row in rows.tolist())

    def refused(obj: object) -> bytes:
        msg = f"Expected no msgspec call for a block of tiny numbers, got one for {obj!r:.40}"
        raise AssertionError(msg)

    monkeypatch.setattr(msgspec.json, "encode", refused)
    assert format_rows(rows) == expected


def test_a_long_digit_run_that_is_no_number_is_refused_naming_line_and_column() -> None:
    """Trying every split of the digits, this refusal took minutes (27 s at 20,000)."""
    text = "1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 " + "9" * 60_000 + "x\n"
    columns = ("t", "x", "y", "z", "qx", "qy", "qz", "qw")
    with pytest.raises(FormatError, match=r"line 2, column 8 \(qw\): '9+'\.\.\. is not a number"):
        parse_table(text, source="d.tum", columns=columns)


def _float_reads(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


# Tokens built from the characters of numbers, the words' letters in both cases and
# Unicode letters that fold to them (Turkish dotless i, dotted capital I, Kelvin sign).
_NUMBER_CHARS = "0123456789.eE+-nNaAiIfFtTyY\u0131\u0130\u212a"


@settings(max_examples=500)
@given(st.text(alphabet=_NUMBER_CHARS, max_size=12) | st.text(max_size=12))
@example("\u0131nf")
@example("+INFINITY")
@example("1.e-5")
def test_number_token_matches_what_float_reads_in_ascii_without_blanks_or_underscores(
    token: str,
) -> None:
    """The number pattern takes exactly the tokens float() reads, but float()'s extras:
    surrounding blanks (the field split takes them), ``_`` between digits and non-ASCII
    digits (NumPy's loadtxt and the fast path read neither)."""
    extras = not token.isascii() or "_" in token or token != token.strip()
    expected = _float_reads(token) and not extras
    assert (NUMBER_TOKEN.fullmatch(token) is not None) is expected
