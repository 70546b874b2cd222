"""The text-table core: comment stripping must equal the regex it short-cuts."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from robot_msgs.errors import FormatError
from robot_msgs.io.table import _FEW_COMMENTS, _strip_comments, parse_table

_REGEX = re.compile(r"#[^\n]*")


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
