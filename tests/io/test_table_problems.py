"""Bytes that are not the text a reader expects: each said as what it is, with the place."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs.errors import FormatError
from robot_msgs.io import detect_format, read_euroc, read_kitti, read_trajectory, read_tum
from robot_msgs.io import table as table_module

if TYPE_CHECKING:
    from pathlib import Path

TUM = "# t x y z qx qy qz qw\n1.0 0 0 0 0 0 0 1\n2.0 1 0 0 0 0 0 1\n"


def put(tmp_path: Path, data: bytes, name: str = "traj.tum") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("encoding", "named"),
    [
        ("utf-16", r"the file is UTF-16 \(little-endian\) text \(byte-order mark FF FE\)"),
        ("utf-16-be", r"the file looks like UTF-16 \(big-endian\) text without a byte-order mark"),
        ("utf-16-le", r"the file looks like UTF-16 \(little-endian\) text without a byte-order"),
        ("utf-32", r"the file is UTF-32 \(little-endian\) text \(byte-order mark FF FE 00 00\)"),
    ],
)
def test_a_utf16_or_utf32_file_names_the_encoding_it_looks_like(
    tmp_path: Path, encoding: str, named: str
) -> None:
    path = put(tmp_path, TUM.encode(encoding))
    pattern = rf"traj\.tum: {named}.*save it as UTF-8"
    for read in (read_tum, read_trajectory, detect_format):
        with pytest.raises(FormatError, match=pattern):
            read(path)


def test_cr_only_line_endings_are_said_as_such(tmp_path: Path) -> None:
    path = put(tmp_path, TUM.replace("\n", "\r").encode())
    message = r"traj\.tum: lines end in CR only \(classic Mac OS line endings, 3 lines\); convert"
    for read in (read_tum, read_euroc, read_kitti, read_trajectory, detect_format):
        with pytest.raises(FormatError, match=message):
            read(path)


def test_crlf_line_endings_are_read(tmp_path: Path) -> None:
    path = put(tmp_path, TUM.replace("\n", "\r\n").encode())
    assert read_tum(path).stamps_s.tolist() == [1.0, 2.0]


def test_a_directory_given_as_a_trajectory_file_says_it_is_a_directory(tmp_path: Path) -> None:
    folder = tmp_path / "run1"
    folder.mkdir()
    message = rf"^{re.escape(str(folder))}: is a directory, not a trajectory file"
    for fmt in (None, "tum", "euroc", "kitti"):
        with pytest.raises(IsADirectoryError, match=message):
            read_trajectory(folder, format=fmt)
    with pytest.raises(IsADirectoryError, match=message):
        read_tum(folder)


def test_a_missing_file_says_no_such_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"none\.tum: no such file$"):
        read_trajectory(tmp_path / "none.tum")
    with pytest.raises(FileNotFoundError, match=r"none\.tum: no such file$"):
        read_tum(tmp_path / "none.tum")


def test_fullwidth_digits_get_a_line_a_column_and_the_character(tmp_path: Path) -> None:
    path = put(tmp_path, "1.0 0 0 0 0 0 0 1\n２.0 1 0 0 0 0 0 1\n".encode())
    with pytest.raises(
        FormatError,
        match=r"traj\.tum, line 2, column 1 \(t\): '２\.0' is not a number \(U\+FF12 FULLWIDTH "
        r"DIGIT TWO is not ASCII; write numbers in ASCII digits\)",
    ):
        read_tum(path)


def test_fullwidth_digits_in_the_first_line_stop_detection_with_the_place(tmp_path: Path) -> None:
    path = put(tmp_path, "1.0 0 ０ 0 0 0 0 1\n".encode())
    with pytest.raises(
        FormatError,
        match=r"traj\.tum: cannot tell the format: line 1, column 3: '０' is not a number "
        r"\(U\+FF10 FULLWIDTH DIGIT ZERO is not ASCII",
    ):
        detect_format(path)


def test_a_first_row_with_a_typo_is_not_dropped_as_a_header(tmp_path: Path) -> None:
    # "1.0x" starts with a digit: not a header word, so the row is named, not skipped.
    path = put(tmp_path, b"1.0x 0 0 0 0 0 0 1\n2.0 1 0 0 0 0 0 1\n")
    with pytest.raises(FormatError, match=r"line 1, column 1 \(t\): '1\.0x' is not a number"):
        read_tum(path)


def test_binary_data_names_the_byte_and_the_format_flag(tmp_path: Path) -> None:
    path = put(tmp_path, b"\x89\xffbinary\x01", name="a.dat")
    with pytest.raises(
        FormatError,
        match=r"a\.dat: not a text file \(byte 0 is not UTF-8\); for a bag choose the format "
        r"\(`format=` bag, bag2 or mcap\)",
    ):
        read_tum(path)
    # After a byte-order mark the byte is counted in the file, not after the mark (was 4).
    marked = put(tmp_path, b"\xef\xbb\xbf1 2\n\xff", name="c.dat")
    with pytest.raises(FormatError, match=r"c\.dat: not a text file \(byte 7 is not UTF-8\)"):
        read_tum(marked)
    nul = put(tmp_path, b"1 2 3\x00\x00\x00\x00\x00\x00\x00\x00 4\n", name="b.dat")
    with pytest.raises(FormatError, match=r"b\.dat: not a text file \(a NUL byte at byte 5\)"):
        read_tum(nul)


@pytest.mark.parametrize(
    "text",
    ["1 2 3\n", "# nothing\n", "", "1 0 0 0 0 0 0 1\n2 0 0 0 0 0 1\n"],
    ids=["three-columns", "no-data", "empty", "short-row"],
)
def test_messages_name_arguments_not_flags(tmp_path: Path, text: str) -> None:
    """A library error names what a Python call passes; the CLI words it with flags."""
    path = put(tmp_path, text.encode())
    with pytest.raises(FormatError, match=f"^{re.escape(str(path))}") as caught:  # names the file
        read_trajectory(path)
    message = str(caught.value)
    for flag in ("--format", "--force", "--strict", "--n-first"):
        assert flag not in message


def test_a_nul_byte_deep_in_a_file_is_named_by_its_line(tmp_path: Path) -> None:
    rows = b"".join(b"%d 0 0 0 0 0 0 1\n" % i for i in range(10_000))
    path = put(tmp_path, rows + b"10001 0 0\x00 0 0 0 0 1\n")
    with pytest.raises(FormatError, match=r"traj\.tum, line 10001, column 3 \(y\): '0\\x00'"):
        read_tum(path)


@pytest.mark.parametrize(
    ("line_6", "fields"),
    [
        # A CR without LF at the end of line 6 (of 40) joined lines 6 and 7, said as
        # 'line 6: expected 8 columns (...), got 16', in a small file and a large one alike.
        ("5.5 0.1 -2 3e-3 0 0 0 1\r", ("after field 8 joins two lines into one (16 fields, "
         "expected 8 columns (t x y z qx qy qz qw))")),
        # A CR inside line 7, its two pieces 4 fields each, was refused by NumPy's parser
        # (a line break to it) and passed the locating pass (whitespace to split()): the
        # file was said as 'could not read the numbers (expected 8 columns ... a row)'.
        ("5.5 0.1 -2 3e-3\r0 0 0 1\n", "after field 4 joins two lines into one (8 fields)"),
        # A CR followed by blanks alone up to the LF joins no line: it said 'after field 8
        # joins two lines into one (8 fields)' of a line of 8 fields.
        ("5.5 0.1 -2 3e-3 0 0 0 1\r \t\n", ("after field 8, only blanks after it on the line "
         "(8 fields)")),
        # Nor does one with blanks alone before it: it said 'after field 0 joins two lines'.
        (" \r5.5 0.1 -2 3e-3 0 0 0 1\n", ("before field 1, only blanks before it on the line "
         "(8 fields)")),
    ],
    ids=["joining-two-rows", "splitting-one-row", "blanks-after-it", "blanks-before-it"],
)  # fmt: skip
@pytest.mark.parametrize("chunk_bytes", [None, 100], ids=["small-file", "large-file"])
@pytest.mark.parametrize("read", [read_tum, read_trajectory])
def test_a_lone_cr_inside_a_file_is_said_where_it_is(
    tmp_path: Path, chunk_bytes: int | None, read: Any, line_6: str, fields: str
) -> None:
    rows = [f"{k}.5 0.1 -2 3e-3 0 0 0 1\n" for k in range(40)]
    rows[5] = line_6
    path = put(tmp_path, ("# t x y z qx qy qz qw\n" + "".join(rows)).encode())
    with pytest.MonkeyPatch.context() as patch:
        if chunk_bytes is not None:  # the large-file path reads pieces of this size
            patch.setattr(table_module, "CHUNK_BYTES", chunk_bytes)
        said = (
            f"{path}, line 7: a carriage return without a line feed (CR, not CR LF) {fields}; "
            "end each line with LF or CR LF"
        )
        with pytest.raises(FormatError, match=f"^{re.escape(said)}$"):
            read(path)


def test_a_lone_cr_in_the_first_data_line_is_said_by_the_format_detection(
    tmp_path: Path,
) -> None:
    """Detection said 'cannot tell the format: line 2 has 16 numbers (TUM has 8, ...)'."""
    path = put(tmp_path, b"# t x y z qx qy qz qw\n1 0 0 0 0 0 0 1\r2 0 0 0 0 0 0 1\n")
    said = (
        f"{path}: cannot tell the format: line 2: a carriage return without a line feed (CR, "
        "not CR LF) after field 8 joins two lines into one (16 fields); end each line with LF "
        "or CR LF"
    )
    for read in (read_trajectory, detect_format):
        with pytest.raises(FormatError, match=f"^{re.escape(said)}"):
            read(path)
