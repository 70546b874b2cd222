"""Headed CSV logs: comments, empty cells and errors naming file, line and column."""

from __future__ import annotations

import math
import tracemalloc
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import FormatError
from robot_msgs.runs.csvlog import read_csv_table
from robot_msgs.runs.logs import read_resources, read_signal_log, read_timing, read_tracking

if TYPE_CHECKING:
    from pathlib import Path

TIMING_HEADER = "frame,acquisition_s,processing_start_s,available_s\n"


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_table_skips_comments_and_blank_lines_and_reads_empty_optional_cells_as_nan(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path / "r.csv",
        "# logger v1\ntime_s,cpu_percent,rss_bytes,gpu_percent\n\n0,10,1,\n# gap\n1,20,2,50\n",
    )
    log = read_resources(path)
    assert log.time_s.tolist() == [0.0, 1.0]
    assert math.isnan(log.gpu_percent[0])
    assert log.gpu_percent[1] == 50.0
    assert np.isnan(log.threads).all()


def test_table_error_names_file_line_and_column_of_a_bad_cell(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "timing.csv", TIMING_HEADER + "0,0.0,0.01,0.02\n# note\n1,0.1,abc,0.12\n"
    )
    with pytest.raises(
        FormatError,
        match=r"timing.csv:4: column `processing_start_s`: expected a number, got 'abc'",
    ):
        read_timing(path)


def test_table_error_names_a_row_with_too_few_cells(tmp_path: Path) -> None:
    path = _write(tmp_path / "timing.csv", TIMING_HEADER + "0,0.0,0.01,0.02\n1,0.1,0.12\n")
    with pytest.raises(
        FormatError, match=r"timing.csv:3: expected 4 comma-separated cells .* got 3"
    ):
        read_timing(path)


def test_table_error_when_every_row_has_the_wrong_cell_count(tmp_path: Path) -> None:
    path = _write(tmp_path / "timing.csv", TIMING_HEADER + "0,0.0,0.01\n1,0.1,0.12\n")
    with pytest.raises(FormatError, match=r"timing.csv:2: expected 4 comma-separated cells"):
        read_timing(path)


def test_table_refuses_unknown_missing_and_duplicate_columns(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.csv", "time_s,cpu\n0,1\n")
    with pytest.raises(FormatError, match=r"a.csv:1: expected columns among .* got 'cpu'"):
        read_csv_table(path, required=("time_s",), optional=("cpu_percent",))
    path = _write(tmp_path / "b.csv", "time_s\n0\n")
    with pytest.raises(FormatError, match=r"b.csv:1: expected a column 'cpu_percent'"):
        read_csv_table(path, required=("time_s", "cpu_percent"))
    path = _write(tmp_path / "c.csv", "time_s,time_s\n0,0\n")
    with pytest.raises(FormatError, match=r"c.csv:1: expected distinct column names"):
        read_csv_table(path, required=("time_s",))


def test_table_refuses_empty_and_missing_files_and_empty_required_cells(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"empty.csv:1: expected a header line"):
        read_csv_table(_write(tmp_path / "empty.csv", "# only a comment\n"), required=("t",))
    with pytest.raises(FormatError, match=r"nope.csv: no such file"):
        read_csv_table(tmp_path / "nope.csv", required=("t",))
    with pytest.raises(FormatError, match=r"d.csv:3: column `t`: expected a number, got ''"):
        read_csv_table(_write(tmp_path / "d.csv", "t,u\n1,2\n,3\n"), required=("t", "u"))
    with pytest.raises(
        FormatError, match=r"e.csv:2: column `t`: expected a finite number, got 'inf'"
    ):
        read_csv_table(_write(tmp_path / "e.csv", "t\ninf\n"), required=("t",))
    (tmp_path / "f.csv").write_bytes(b"t\n\xff\xfe\n")
    with pytest.raises(FormatError, match=r"f.csv: expected UTF-8 text"):
        read_csv_table(tmp_path / "f.csv", required=("t",))


@pytest.mark.parametrize("cell", ["1e999", "Infinity", "NaN", "-INF"])
@pytest.mark.parametrize("text", [(), ("note",)], ids=["numbers", "with_text"])
def test_a_non_finite_required_cell_is_quoted_as_the_file_writes_it(
    tmp_path: Path, cell: str, text: tuple[str, ...]
) -> None:
    # All-numeric tables are parsed at once; a table with a text column cell by cell. The
    # first said the parsed float ('inf' for 1e999), a token not in the file; the second
    # the cell, as every other refusal of a cell does.
    header = "t,u" + (",note" if text else "")
    rows = ["1,2" + (",a" if text else ""), f"3, {cell} " + (",b" if text else "")]
    path = _write(tmp_path / "n.csv", "\n".join([header, *rows]) + "\n")
    said = rf"n.csv:3: column `u`: expected a finite number, got '{cell}'$"
    with pytest.raises(FormatError, match=said):
        read_csv_table(path, required=("t", "u"), optional=text, text=text)


def test_header_only_table_has_no_rows(tmp_path: Path) -> None:
    table = read_csv_table(_write(tmp_path / "h.csv", "t,u\n"), required=("t", "u"))
    assert table.rows == 0
    assert table.floats("t").shape == (0,)


def test_a_log_is_bounded_as_every_input(tmp_path: Path) -> None:
    """A 204 MB resources.csv was read whole past --max-bytes (2.1 GB of memory; a review)."""
    from robot_msgs.limits import input_limits

    log = tmp_path / "resources.csv"
    log.write_text("time_s,cpu_percent\n" + "0.0,50\n" * 1000, encoding="utf-8")
    with (
        input_limits(max_bytes=1000),
        pytest.raises(FormatError, match=r"input_limits\(max_bytes=\.\.\.\)"),
    ):
        read_csv_table(log, required=("time_s", "cpu_percent"))
    assert read_csv_table(log, required=("time_s", "cpu_percent")).columns["time_s"].size == 1000


def test_a_log_without_a_line_end_in_its_head_is_refused_unread(tmp_path: Path) -> None:
    """A 1 GiB sparse timing.csv (zeros, no newline) was read whole, within --max-bytes:
    2.1 GB and 45 s in a sweep before its header was refused. 64 MiB here held 128 MiB
    (its bytes and text); refused from its first MiB, about 1 MiB (the head alone)."""
    log = tmp_path / "timing.csv"
    with log.open("wb") as handle:
        handle.truncate(64 << 20)  # sparse: no disk used
    tracemalloc.start()
    try:
        with pytest.raises(
            FormatError, match=r"timing\.csv:1: expected a header line .* first 1 MiB"
        ):
            read_timing(log)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20
    # A header ended within the head reads as before, however long the file.
    rows = "".join(f"{k},{k / 10},{k / 10 + 0.01},{k / 10 + 0.02}\n" for k in range(5000))
    assert read_timing(_write(log, TIMING_HEADER + rows)).frame.tolist() == list(range(5000))


def test_a_wide_header_or_a_long_first_comment_is_a_log_not_a_file_without_lines(
    tmp_path: Path,
) -> None:
    """A head of 64 KiB without a line end was refused as no CSV log: a signal log of
    6000 channels (a 108 KB header, read before) and one whose first line is a 70 KB
    comment (a logger's settings) were refused too. A megabyte is no header."""
    names = [f"channel_{k:05d}_pos" for k in range(6000)]
    lines = [
        "t," + ",".join(names),
        "0," + ",".join(["0.5"] * 6000),
        "1," + ",".join(["-2"] * 6000),
    ]
    log = read_signal_log(_write(tmp_path / "wide.csv", "\n".join(lines) + "\n"))
    assert log.channels == tuple(names)
    assert log.values.shape == (2, 6000)
    assert set(log.values[0].tolist()) == {0.5}
    assert set(log.values[1].tolist()) == {-2.0}
    commented = "# settings: " + "k=v;" * 17_500 + "\nt,elbow\n0,0.1\n1,0.3\n"
    assert read_signal_log(_write(tmp_path / "c.csv", commented)).values.tolist() == [[0.1], [0.3]]


def test_a_log_saved_with_a_utf8_byte_order_mark_reads_as_without_it(tmp_path: Path) -> None:
    # Excel's "CSV UTF-8" starts the file with a BOM: timing.csv was refused ("expected
    # columns among [...], got '\ufeffframe'"), where meta.json and trajectories take it.
    text = TIMING_HEADER + "0,10.0,10.01,10.05\r\n1,10.1,10.11,10.2\r\n"
    plain = read_timing(_write(tmp_path / "plain.csv", text))
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    marked = read_timing(path)
    assert marked.acquisition_s.tolist() == plain.acquisition_s.tolist() == [10.0, 10.1]
    assert marked.available_s.tolist() == [10.05, 10.2]


def test_a_log_in_utf16_is_said_to_be_one(tmp_path: Path) -> None:
    """Saved from PowerShell: 'expected UTF-8 text, got undecodable bytes' said not why."""
    path = tmp_path / "resources.csv"
    path.write_bytes("time_s,cpu_percent\n0,50\n".encode("utf-16"))
    with pytest.raises(FormatError, match=r"resources\.csv: the file is UTF-16 text, not UTF-8"):
        read_csv_table(path, required=("time_s", "cpu_percent"))


@pytest.mark.parametrize(("codec", "name"), [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")])
@pytest.mark.parametrize("log", ["timing", "signal"])
def test_a_log_in_utf16_without_a_byte_order_mark_is_said_to_be_one(
    tmp_path: Path, codec: str, name: str, log: str
) -> None:
    """Without a mark, UTF-16 is valid UTF-8 (ASCII and NULs): 'expected 4 comma-separated
    cells ..., got 1' (the NUL-led lines) said not why. The trajectory readers and the
    JSON documents say UTF-16 of it; a CSV log, timing.csv or a `track` log, now too."""
    path = tmp_path / "log.csv"
    timing = log == "timing"
    text = TIMING_HEADER + "0,10.0,10.01,10.05\n" if timing else "time_s,x\n0,1.5\n1,2.5\n"
    path.write_bytes(text.encode(codec))
    with pytest.raises(FormatError, match=rf"log\.csv: the file is {name} text, not UTF-8"):
        read_timing(path) if timing else read_signal_log(path)


@pytest.mark.parametrize(
    ("codec", "name"), [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")]
)
def test_a_log_in_utf16_cut_mid_character_is_said_to_be_one_cut_short(
    tmp_path: Path, codec: str, name: str
) -> None:
    """Cut after an odd number of bytes, UTF-16 decodes whole but its last byte, and was
    refused by its cells ('expected 2 comma-separated cells ..., got 1')."""
    path = tmp_path / "log.csv"
    path.write_bytes("time_s,x\n0,1.5\n1,2.5\n".encode(codec)[:-1])
    said = rf"log\.csv: the file is {name} text \(cut short: its last character is not whole\)"
    with pytest.raises(FormatError, match=said + r", not UTF-8"):
        read_signal_log(path)


@pytest.mark.parametrize(
    "data",
    [b"\0" * 1001, b"\0" * 1002, bytes(8 * 11) + b"x", b"\x07" + b"\0" * 1000],
    ids=["zeros-odd", "zeros-2-mod-4", "float64-zeros-and-a-byte", "nul-padded"],
)
def test_binary_zeros_cut_short_are_not_said_to_be_wide_text(tmp_path: Path, data: bytes) -> None:
    """NULs alone stand where ASCII's NULs do: a zero-filled file (a log preallocated, a
    crash's tail) of no whole number of UTF-32 units was said to be 'UTF-32BE text (cut
    short ...)', a file with no character in it."""
    path = tmp_path / "log.csv"
    path.write_bytes(data)
    with pytest.raises(FormatError, match=r"log\.csv:1: expected a time column, then a column"):
        read_signal_log(path)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["\u0665", "\uff15", "\U0001d7d3", "5\x00", "\x005", "\u00b2"]),
    st.integers(0, 2),
    st.booleans(),
)
def test_a_number_cell_with_a_non_ascii_character_or_a_nul_is_refused(
    tmp_path_factory: pytest.TempPathFactory, cell: str, column: int, other_rows_text: bool
) -> None:
    """NumPy's loadtxt read the Arabic-Indic digit '٥' as 5 (float() reads any Unicode
    digit) and '5<NUL>' as 5 (its strings drop trailing NULs): a resources.csv of them
    loaded in silence, where the trajectory readers refuse them."""
    names = ("time_s", "cpu_percent", "rss_bytes")
    cells = ["0.5", "50", "1e8"]
    cells[column] = cell
    rows = "1.5,60,2e8\n" if other_rows_text else ""
    path = tmp_path_factory.mktemp("log") / "resources.csv"
    path.write_text(f"{','.join(names)}\n{','.join(cells)}\n{rows}", encoding="utf-8")
    with pytest.raises(
        FormatError, match=rf"resources\.csv:2: column `{names[column]}`: expected a number \("
    ):
        read_resources(path)


def test_a_table_holds_its_columns_not_its_lines(tmp_path: Path) -> None:
    """A JointState log of 10^5 rows (3.2 MB) held its every line as a Python str to
    name one in an error: 13.7 MB held beside the columns after the read (4.3 times the
    file; a 10^6-row log peaked at 221 MB, 6.0 times). Now the columns alone, 4.9 MB (1.5
    times): the line numbers come from the blank and ``#`` lines' numbers, and a bad
    cell after comments is still named by its line (below)."""
    rows = "".join(
        f"{k / 500!r},{'elbow' if k % 2 else 'wrist'},{k / 7!r},0\n" for k in range(10**5)
    )
    path = _write(tmp_path / "j.csv", "time,name,position,velocity\n" + rows)
    tracemalloc.start()
    try:
        table = read_csv_table(path, required=(), text=("name",), others="text")
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert table.rows == 10**5
    assert held < 2 * path.stat().st_size


@pytest.mark.parametrize("bad_row", [0, 1, 3, 4])
def test_a_bad_cell_or_row_after_blank_and_comment_lines_is_named_by_its_line(
    tmp_path: Path, bad_row: int
) -> None:
    """Lines 1 (comment), 3 (blank), 5 and 6 (comments) are skipped: the data rows
    0..4 are lines 4, 7, 8, 9, 10 (counted by hand); a bad cell and a short row in each
    row are named by that line."""
    lines = ["# v1", "t,x", "", "0,1", "# a", "  # b", "1,2", "2,3", "3,4", "4,5"]
    line_of_row = [4, 7, 8, 9, 10]
    for edit, said in (
        ("{t},oops", "column `x`: expected a number, got 'oops'"),
        ("{t}", "expected 2 comma-separated cells"),
    ):
        text = list(lines)
        number = line_of_row[bad_row]
        text[number - 1] = edit.format(t=bad_row)
        path = _write(tmp_path / "l.csv", "\n".join(text) + "\n")
        with pytest.raises(FormatError, match=rf"l\.csv:{number}: {said}"):
            read_csv_table(path, required=("t", "x"))


@settings(max_examples=60, deadline=None)
@given(
    layout=st.lists(st.sampled_from(["data", "#", "", "  # x"]), min_size=1, max_size=12),
    where=st.integers(min_value=0),
)
def test_a_bad_cell_is_named_by_its_line_wherever_the_skipped_lines_fall(
    tmp_path_factory: pytest.TempPathFactory, layout: list[str], where: int
) -> None:
    """Law: a bad cell in any data row is named by its own line, whatever blank and
    comment lines lie before and after the header and between rows."""
    lines = ["# head", "t,x", *(("{k},1" if kind == "data" else kind) for kind in layout)]
    data = [n for n, line in enumerate(lines, start=1) if line == "{k},1"]
    if not data:
        return
    number = data[where % len(data)]
    text = [line.format(k=k) for k, line in enumerate(lines)]
    text[number - 1] = f"{number},oops"
    path = _write(tmp_path_factory.mktemp("l") / "l.csv", "\n".join(text) + "\n")
    with pytest.raises(FormatError, match=rf"l\.csv:{number}: column `x`: expected a number"):
        read_csv_table(path, required=("t", "x"))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(-(10**18), 10**18),
    st.integers(0, 9),
    st.sampled_from(["", "+"]),
    st.integers(0, 3),
)
def test_time_ns_reads_a_decimal_of_9_decimals_or_fewer_exactly(
    tmp_path_factory: pytest.TempPathFactory, ns: int, cut: int, plus: str, zeros: int
) -> None:
    """Law: a time written with its nanoseconds (``1700000000.123456789``), decimals
    ending in zeros cut, a sign or leading zeros given, reads back as those nanoseconds,
    and its float64 as the nearest to them (loadtxt's)."""
    ns -= ns % 10**cut  # its last `cut` decimals 0, then left out
    whole, part = divmod(abs(ns), 10**9)
    sign = "-" if ns < 0 else plus
    decimals = f"{part:09d}"[: 9 - cut]
    cell = f"{sign}{'0' * zeros}{whole}" + (f".{decimals}" if decimals else "")
    path = tmp_path_factory.mktemp("ns") / "t.csv"
    path.write_text(f"t,x\n{cell},1\n 0.5 ,2\n")
    table = read_csv_table(path, required=("t", "x"), time_ns=True)
    assert table.time_ns is not None
    assert table.time_ns.tolist() == [ns, 500_000_000]
    assert table.columns["t"].tolist() == [ns / 10**9, 0.5]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789.+-eE ,x\t", max_size=14))
def test_time_ns_is_exact_or_none_for_any_text(cells: str) -> None:
    """Law: any first cells read as nanoseconds exactly (Fraction of the text x 10^9,
    rounded, where not an integer only from 2^23 s) or not at all (None: 2.5e-10, 10
    decimals not 0 below 2^23 s, text), never an error; what is read, float64 reads too
    (loadtxt's reading)."""
    from fractions import Fraction

    from robot_msgs.runs.csvlog import _nanoseconds

    rows = [f"{cell},1" for cell in cells.split(",")]
    got = _nanoseconds(rows)
    if got is None:
        return
    for cell, ns in zip(cells.split(","), got.tolist(), strict=True):
        text = cell.strip()
        assert "x" not in text
        assert round(Fraction(text) * 10**9) == ns
        assert (Fraction(text) * 10**9).denominator == 1 or abs(Fraction(text)) >= 2**23
        assert np.loadtxt([f"{cell},1"], delimiter=",", usecols=[0]) == float(Fraction(text))


@settings(max_examples=300, deadline=None)
@given(
    st.integers(-(10**18), 10**18),
    st.integers(-12, 12),
    st.sampled_from(["e", "E"]),
    st.booleans(),
)
def test_time_ns_reads_a_time_in_exponent_form_exactly(
    ns: int, shift: int, mark: str, plus: bool
) -> None:
    """Law: a time of whole nanoseconds typed in exponent form (NumPy ``savetxt``'s
    default ``%.18e`` writes 1700000000.123456717 s as ``1.700000000123456717e+09``),
    its mantissa's point anywhere, reads back as those nanoseconds: the exponent moves
    the point. It read as floats, 238 ns apart since 1970 (seen failing before)."""
    from decimal import Decimal

    from robot_msgs.runs.csvlog import _nanoseconds

    seconds = Decimal(ns).scaleb(-9)
    mantissa = format(seconds.scaleb(-shift), "f")  # exact: the point moved `shift` places
    exponent = f"{'+' if plus and shift >= 0 else ''}{shift}"
    got = _nanoseconds([f"{mantissa}{mark}{exponent},1"])
    assert got is not None, f"{mantissa}{mark}{exponent}"
    assert got.tolist() == [ns]


def test_time_ns_is_none_for_a_time_of_another_form(tmp_path: Path) -> None:
    """A part of a nanosecond below 2^23 s (a 10th decimal not 0, 2.5e-10), or past
    int64 nanoseconds (9223372036 s): the floats stay, exact nanoseconds are not said.
    An exponent or a 10th decimal 0 is read (seen None before)."""
    for cell in ("0.1234567891", "2.5e-10", "8388607.9999999999", "9223372036", "9.3e9"):
        path = _write(tmp_path / "t.csv", f"t,x\n0,1\n{cell},1\n")
        assert read_csv_table(path, required=("t", "x"), time_ns=True).time_ns is None, cell
    path = _write(tmp_path / "t.csv", "t,x\n1.7e9,1\n1E3,1\n0.1234567890,1\n-2E-9,1\n")
    time_ns = read_csv_table(path, required=("t", "x"), time_ns=True).time_ns
    assert time_ns is not None
    assert time_ns.tolist() == [1_700_000_000 * 10**9, 1000 * 10**9, 123_456_789, -2]
    path = _write(tmp_path / "t.csv", "t,x\n0,1\n9223372035.999999999,1\n")
    time_ns = read_csv_table(path, required=("t", "x"), time_ns=True).time_ns
    assert time_ns is not None
    assert time_ns.tolist() == [0, 9_223_372_035_999_999_999]


@pytest.mark.parametrize(
    ("name", "header", "row"),
    [
        # a number column's cell: refused by its value, then named
        ("timing.csv", TIMING_HEADER, "7,0.7,0.71,{big}\n"),
        # a row of one cell (the fuzz case: a 10 MB line in timing.csv took 131 s, 15.8 GB)
        ("timing.csv", TIMING_HEADER, "{big}\n"),
        # a text column's cell
        ("tracking.csv", "time_s,event\n", "7.5,{big}\n"),
    ],
)
def test_one_huge_cell_costs_its_bytes_not_its_width_times_the_rows(
    tmp_path: Path, name: str, header: str, row: str
) -> None:
    """A column read as text was a fixed-width array: its widest cell's width times the
    rows, 4 bytes a character. One 200 kB cell among 400 rows (a 0.2 MB file) peaked at
    320 MB (seen before the fix); a 10 MB line in a ``timing.csv`` of 200 rows took 131 s
    and 15.8 GB before its row was refused. Now the text is held once, as long as it is."""
    rows = [f"{k},{k / 10},{k / 10 + 0.001},{k / 10 + 0.002}\n" for k in range(400)]
    if name == "tracking.csv":
        rows = [f"{k + 0.5},{'lost' if k % 2 == 0 else 'recovered'}\n" for k in range(400)]
    rows[7] = row.format(big="9" * 200_000)
    path = _write(tmp_path / name, header + "".join(rows))
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match=rf"{name}:9: "):
            (read_timing if name == "timing.csv" else read_tracking)(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * path.stat().st_size


def test_a_huge_time_cell_is_no_exact_time_and_costs_no_width_times_the_rows(
    tmp_path: Path,
) -> None:
    """``time_ns`` read each block's first cells as fixed-width text: one 10 MB time cell
    in a 4,001-row log asked 149 GiB, and ``track`` said "out of memory" for a 10 MB file
    (seen before the fix). A cell of 32 bytes or more is no exact time: the floats' reading
    names the line, and a finite long cell keeps the floats."""
    rows = [f"{k / 100},{k}\n" for k in range(400)]
    rows[7] = "1" * 200_000 + ",7\n"  # 1.1e200000: not finite, named by its line
    path = _write(tmp_path / "t.csv", "t,x\n" + "".join(rows))
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match=r"t\.csv:9: column `t`: expected a finite"):
            read_csv_table(path, required=("t", "x"), time_ns=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * path.stat().st_size
    rows[7] = "0.07" + "0" * 200_000 + ",7\n"  # finite: the floats stay, no exact time
    path = _write(tmp_path / "t.csv", "t,x\n" + "".join(rows))
    table = read_csv_table(path, required=("t", "x"), time_ns=True)
    assert table.time_ns is None
    assert table.columns["t"][7] == 0.07


def test_time_ns_reads_beside_text_not_ascii_and_refuses_a_cell_of_32_bytes(
    tmp_path: Path,
) -> None:
    """A row of text not ASCII (a mode ``ü``) still gives its time's nanoseconds, CRLF
    lines as LF ones; a time cell of 32 bytes or more (leading zeros, blanks) is read as
    floats only: the nanoseconds are read from each row's first 32 bytes."""
    path = tmp_path / "t.csv"
    path.write_bytes("t,x,mode\r\n1700000000.5,1,ü\r\n 1700000000.000000001 ,2,a\r\n".encode())
    table = read_csv_table(path, required=("t", "x"), others="text", time_ns=True)
    assert table.time_ns is not None
    assert table.time_ns.tolist() == [1_700_000_000_500_000_000, 1_700_000_000_000_000_001]
    for cell, ns in (("0" * 20 + "1.123456789", 1_123_456_789), ("0" * 21 + "1.123456789", None)):
        _write(path, f"t,x\n{cell},1\n")
        time_ns = read_csv_table(path, required=("t", "x"), time_ns=True).time_ns
        assert (None if time_ns is None else time_ns.tolist()) == (None if ns is None else [ns])


#: The most whole seconds whose nanoseconds fit int64 with any fraction (csvlog's).
_MAX_WHOLE_S = (2**63 - 1) // 10**9 - 1


def _ns_of_fraction(text: str) -> int | None:
    """The reference: ``text``'s nanoseconds by Fraction, rounded half to even, or None.

    None past int64's whole seconds, or for a part of a nanosecond below 2^23 s (where
    float64 is finer than 1 ns).
    """
    from fractions import Fraction

    exact = Fraction(text) * 10**9
    if abs(exact) >= (_MAX_WHOLE_S + 1) * 10**9:
        return None
    if exact.denominator != 1 and abs(exact) < 2**23 * 10**9:
        return None
    return round(exact)


_WHOLE_SECONDS = st.one_of(
    st.integers(0, 10**10),
    st.sampled_from([0, 1, 2**23 - 1, 2**23, 1_700_000_000, _MAX_WHOLE_S, _MAX_WHOLE_S + 1]),
)
#: Decimals, the 10th and on chosen to meet ties (5, 50, 5 then a digit not 0) often.
_DECIMALS = st.one_of(
    st.text("0123456789", max_size=20),
    st.builds(
        str.__add__,
        st.text("0123456789", min_size=9, max_size=9),
        st.sampled_from(["5", "50", "500001", "4999", "6", "0", "05", "9999999999"]),
    ),
)


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(["", "+", "-"]),
    _WHOLE_SECONDS,
    st.sampled_from(["int", "point", "bare point"]),
    _DECIMALS,
    st.one_of(
        st.none(),
        st.tuples(
            st.sampled_from(["e", "E"]),
            st.sampled_from(["", "+", "-"]),
            st.integers(0, 4),
            st.one_of(st.integers(0, 60), st.sampled_from([9, 10, 19, 20, 42, 43, 44, 45])),
        ),
    ),
)
def test_time_ns_is_a_fractions_nearest_nanosecond(
    sign: str,
    whole: int,
    form: str,
    decimals: str,
    exponent: tuple[str, str, int, int] | None,
) -> None:
    """Law: a time of any decimals and exponent (leading zeros in it too: `1.7e0009`)
    reads as the nearest nanosecond of its exact value, a tie to the even one, as a
    Fraction rounds (from 2^23 s, where float64 is coarser than 1 ns), or None (below,
    and past int64). Seen failing before: a 10th decimal not 0 since 1970, and any
    exponent of 4 digits, were None (the floats, 2.4e-7 s apart)."""
    from robot_msgs.runs.csvlog import _nanoseconds

    if form == "int":
        mantissa = f"{whole}"
    elif form == "point":
        mantissa = f"{whole}.{decimals}"
    else:  # no whole part: `.25`
        mantissa = f".{decimals or '0'}"
    cell = sign + mantissa
    if exponent is not None:
        mark, exponent_sign, zeros, value = exponent
        cell += f"{mark}{exponent_sign}{'0' * zeros}{value}"
    if len(cell) >= 32:  # the bytes a time read as nanoseconds is shorter than
        return
    got = _nanoseconds([f"{cell},1"])
    want = _ns_of_fraction(cell)
    assert (None if got is None else got.tolist()[0]) == want, cell


@pytest.mark.parametrize(
    ("cell", "ns"),
    [
        ("1700000000.1234567891", 1_700_000_000_123_456_789),  # 10 decimals since 1970
        ("1700000000.1234567895", 1_700_000_000_123_456_790),  # a tie: to the even
        ("1700000000.1234567885", 1_700_000_000_123_456_788),
        ("1700000000.12345678850001", 1_700_000_000_123_456_789),  # past the tie
        ("-1700000000.1234567895", -1_700_000_000_123_456_790),
        ("1.7000000001234567895e+0009", 1_700_000_000_123_456_790),
        ("1.7e0009", 1_700_000_000 * 10**9),  # 4 exponent digits
        ("17000000001234567895E-000010", 1_700_000_000_123_456_790),
        ("9223372035.9999999995", 9_223_372_036 * 10**9),  # rounds up to int64's edge
        ("8388608.0000000005", 8_388_608 * 10**9),  # 2^23 s: rounded from here
    ],
)
def test_time_ns_rounds_a_time_since_1970_to_the_nearest_nanosecond(cell: str, ns: int) -> None:
    """Edges, by hand: the 10th decimal and on rounded, a tie to the even nanosecond;
    each seen None before (the floats, 2.4e-7 s apart since 1970)."""
    from robot_msgs.runs.csvlog import _nanoseconds

    got = _nanoseconds([f"{cell},1", "1700000000,2"])
    assert got is not None
    assert got.tolist() == [ns, 1_700_000_000 * 10**9]


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        ("1e+0099999", "expected a finite number, got '1e+0099999'"),
        ("-1.7E0000000400", "expected a finite number, got '-1.7E0000000400'"),
        ("1e-0099999", "expected a time after 1700000000.1 (strictly increasing), got 0.0"),
    ],
)
def test_an_absurd_exponent_is_refused_in_one_line_naming_file_line_column(
    tmp_path: Path, cell: str, said: str
) -> None:
    """An exponent of a time past float64 (or to 0 s after 1970) is refused as the
    float reading refuses it: one line naming the file, line and column; the
    nanoseconds' reading never raises nor hangs on it (a guard: so before too)."""
    from robot_msgs.runs.logs import read_signal_log

    path = _write(tmp_path / "c.csv", f"t,x\n1700000000.0,0\n1700000000.1,1\n{cell},1\n")
    with pytest.raises(FormatError, match="column `t`") as info:
        read_signal_log(path)
    assert str(info.value) == f"{path}:4: column `t`: {said}"


def test_the_doctest_leaves_no_folder_behind(tmp_path: Path) -> None:
    """The docstring's example runs whole and leaves ``tempfile``'s folder as it found it.

    WHY: run outside pytest (``python -m doctest``, a helper's check), it made a
    ``tempfile.mkdtemp()`` folder holding ``log.csv`` each run and left it in /tmp.
    """
    import doctest
    import tempfile

    from robot_msgs.runs import csvlog

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(tmp_path))
        (test,) = doctest.DocTestFinder().find(read_csv_table, globs=vars(csvlog).copy())
        result = doctest.DocTestRunner(verbose=False).run(test)
    assert (result.failed, result.attempted > 0) == (0, True)
    assert list(tmp_path.iterdir()) == []
