"""Terminal text: display widths, padding, and the one wrap every command's notes use."""

from __future__ import annotations

import os
import textwrap
from typing import TYPE_CHECKING

from hypothesis import given
from hypothesis import strategies as st

from robot_msgs.report.text import display_width, file_and_what, grouped, ljust, rjust, wrap

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

#: Two terminal columns each: CJK ideographs and fullwidth forms (East Asian Width W, F).
_WIDE = "日本語東京漢字表ＡＢ１"
#: No column: combining marks, printed on the character before (acute, diaeresis, dot below).
_MARKS = "\u0301\u0308\u0323"
_NARROW = "abcxyz0123456789./-_:()[],"


def _display(text: str) -> int:
    """Columns of ``text`` by hand: 2 for each of ``_WIDE``, 0 for ``_MARKS``, else 1."""
    return sum(2 if c in _WIDE else 0 if c in _MARKS else 1 for c in text)


def test_display_width_counts_wide_characters_twice_and_combining_marks_not_at_all() -> None:
    assert display_width("fr1_xyz") == 7
    assert display_width("東京/estimate.tum") == 4 + 13
    assert display_width("Ａ１") == 4
    assert display_width("cafe\u0301") == 4  # é as e + U+0301: four letters on screen
    assert display_width("\u200d") == 0  # zero width joiner
    assert ljust("東京", 5) == "東京 "
    assert rjust("cafe\u0301", 6) == "  cafe\u0301"


@given(st.text(alphabet=_NARROW + _WIDE + _MARKS + " "))
def test_display_width_is_the_columns_counted_by_hand(text: str) -> None:
    assert display_width(text) == _display(text)


_ASCII = st.text(alphabet=st.sampled_from("abc-/_.x\t\n "), max_size=120)
_INDENT = st.sampled_from(["", " ", "  - ", "    ", "NOTE: "])


@given(text=_ASCII, width=st.integers(1, 40), first=_INDENT, rest=_INDENT)
def test_wrap_is_textwraps_without_breaking_words_on_ascii(
    text: str, width: int, first: str, rest: str
) -> None:
    """On ASCII text the display width is ``len``: the lines are ``TextWrapper``'s."""
    reference = textwrap.TextWrapper(
        width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    assert wrap(text, width, initial_indent=first, subsequent_indent=rest) == reference.wrap(text)


_WORD = st.text(alphabet=_NARROW + _WIDE + _MARKS, min_size=1, max_size=30)


@given(
    words=st.lists(_WORD, max_size=20),
    spaces=st.lists(st.sampled_from([" ", "  ", "\n"]), min_size=20, max_size=20),
    width=st.integers(1, 80),
    first=st.sampled_from(["", "  ", "    "]),
    rest=st.sampled_from(["", "  ", "    "]),
)
def test_wrap_fits_the_width_in_display_columns_and_keeps_every_word_in_order(
    words: list[str], spaces: list[str], width: int, first: str, rest: str
) -> None:
    text = "".join(w + s for w, s in zip(words, spaces, strict=False))
    lines = wrap(text, width, initial_indent=first, subsequent_indent=rest)
    bodies = [line.removeprefix(first if n == 0 else rest) for n, line in enumerate(lines)]
    assert [w for body in bodies for w in body.split()] == words
    for line, body in zip(lines, bodies, strict=True):
        assert _display(line) <= width or len(body.split()) == 1, lines
    # Greedy: the next line's first word did not fit on this line after the space before it.
    last = -1
    for line, body in zip(lines[:-1], bodies, strict=False):
        last += len(body.split())
        assert _display(line + spaces[last] + words[last + 1]) > width, lines


@given(
    items=st.lists(
        st.text(alphabet=_NARROW + _WIDE + " ", min_size=1, max_size=20).filter(str.strip),
        max_size=12,
    ),
    width=st.integers(10, 80),
)
def test_wrap_of_words_keeps_each_whole_even_with_spaces(items: list[str], width: int) -> None:
    words = [item.strip() for item in items]
    lines = wrap(["  head:", *words], width, subsequent_indent="    ")
    said = " ".join(line.strip() for line in lines)
    assert said == " ".join(["head:", *words])
    for line in lines:
        assert _display(line) <= width or line.strip() in {"head:", *words}, lines
    assert lines[0].startswith("  head:")


def test_grouped_names_and_counts_a_file_warned_twice_once_in_one_line() -> None:
    """Five folders, the first warned twice: one line, ``a`` named once, ``2 more``.

    WHY: the first folder's warning given twice named it twice (``a, a, f0 and 3 more``:
    six folders where there are five) and the grouped line was said twice; six times for
    one warning given six times. A text with no file before its ``": "`` is left alone.
    """
    what = "holds timing.csv but no estimate"
    texts = [f"a: {what}", f"a: {what}", *(f"f{k}: {what}" for k in range(4))]
    assert grouped(texts) == [f"a, f0, f1 and 2 more: {what}"]
    assert grouped([f"a: {what}"] * 6) == [f"a: {what}"] * 6  # one file: nothing to group
    assert grouped([": empty"] * 6) == [": empty"] * 6


def test_grouped_names_a_folder_whose_name_holds_a_colon_and_space_whole(tmp_path: Path) -> None:
    """Five folders ``run: 1``: named whole, their message whole (it holds ``": "`` too).

    WHY: the file ended at the first ``": "``: ``a/run, b/run, c/run and 2 more: 1:
    holds ...``. A text whose longer prefix names no path splits at the first, as before.
    """
    what = "holds timing.csv but no estimate.<ext> or meta.json: not a run"
    folders = [tmp_path / name / "run: 1" for name in "abcde"]
    for folder in folders:
        folder.mkdir(parents=True)
    texts = [f"{folder}: {what}" for folder in folders]
    assert grouped(texts) == [f"{folders[0]}, {folders[1]}, {folders[2]} and 2 more: {what}"]
    assert file_and_what(texts[0]) == (str(folders[0]), what)
    gone = tmp_path / "gone" / "run: 1"
    assert file_and_what(f"{gone}: {what}") == (str(gone.parent / "run"), f"1: {what}")


def test_file_and_what_asks_the_disk_only_of_prefixes_short_enough_to_be_a_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A text of 10,000 ``": "`` asks of at most 4096 characters' prefixes, each once.

    WHY: every prefix before a ``": "`` was joined again and looked up, 9,999 of them
    (one second, quadratic in the separators) where no prefix past 4096 characters can
    be a path (``PATH_MAX``: ``ENAMETOOLONG``); the split is the same.
    """
    asked: list[str] = []

    def lexists(path: str) -> bool:
        asked.append(path)
        return False

    monkeypatch.setattr(os.path, "lexists", lexists)
    text = "a: " * 10_000
    assert file_and_what(text) == ("a", text[3:])
    assert asked
    assert max(map(len, asked)) <= 4096
    # "a: a", "a: a: a"... up to 4096 characters (4 + 3 x 1364); "a", the first, is no question
    assert len(asked) == len(set(asked)) == 1365
    asked.clear()
    assert file_and_what("r/run: 1: holds x: not a run") == ("r/run", "1: holds x: not a run")
    assert asked == ["r/run: 1: holds x", "r/run: 1"]  # the longest first


def test_percent_says_a_share_just_under_one_as_less_than_all_and_refuses_non_shares() -> None:
    import math

    import pytest

    from robot_msgs.report.text import percent

    # By hand: 1 - 0.995 = 0.5 %, so 99.5 %; 1/788 = 0.1269 % -> 0.13 % -> 99.87 %;
    # 1 of 400 missing = 0.25 % -> 99.75 %; 2e-7 missing is below 0.01 %.
    assert percent(0.995) == "99.5%"
    assert percent(1 - 1 / 788) == "99.87%"
    assert percent(399 / 400) == "99.75%"
    assert percent(1 - 2e-7) == "more than 99.99%"
    assert percent(1.0) == "100%"
    assert percent(0.994) == "99%"  # the whole percentage already says less than all
    for bad in (math.nan, math.inf, -math.inf, -0.001, 1.5):
        with pytest.raises(ValueError, match="a share is from 0 to 1"):
            percent(bad)


def test_percent_says_a_negative_zero_share_as_zero() -> None:
    """-0.0 passed the 0-to-1 check and was said "-0%", a share the check means to refuse
    or say as 0% (a difference of equal spans, or 0.0 * -1, is -0.0)."""
    from robot_msgs.report.text import percent

    assert percent(-0.0) == percent(0.0) == "0%"


def test_listed_names_none_or_one_and_counts_the_rest_without_a_dangling_and() -> None:
    """``shown=0`` said " and 2 more", an "and" after nothing (a leading space)."""
    from robot_msgs.report.text import listed

    assert listed([], 0) == listed([], 5) == ""
    assert listed(["a"], 1) == listed(["a"], 5) == "a"
    assert listed(["a", "b"], 0) == "2 more"
    assert listed(["a", "b", "c"], 1) == "a and 2 more"
    assert listed(["a", "b"], 1) == "a, b"  # the one more named (73e1403)
