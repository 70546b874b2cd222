"""A large table read in pieces equals the same table read whole: values, line numbers, errors."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robot_msgs.errors import FormatError
from robot_msgs.io import chunks as chunks_module
from robot_msgs.io import table as table_module
from robot_msgs.io.chunks import file_chunks, parse_chunks
from robot_msgs.io.table import read_table

if TYPE_CHECKING:
    from pathlib import Path

# Only for tests of the compiled road's own pieces: without the C module the Python road
# reads every large file in pieces, and the tests of those (and of file_chunks) run.
needs_compiled = pytest.mark.skipif(
    table_module._fasttable is None,
    reason="robot_msgs.io._fasttable is not built (no C compiler at install); "
    "the compiled road reads no table in pieces",
)

_COLUMNS = ("t", "x", "y", "z", "qx", "qy", "qz", "qw")


@pytest.fixture(scope="module", autouse=True)
def table_road() -> str:
    """These tests are about the compiled road's pieces: no run with it hidden."""
    return "fast"


def _read(path: Path, chunk_bytes: int, *, header: bool = False) -> object:
    """The table's parts and lines as lists, or the error's text, read with ``chunk_bytes``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "CHUNK_BYTES", chunk_bytes)
        try:
            table = read_table(path, columns=_COLUMNS, split=(1, 3, 4), header=header)
        except FormatError as err:
            return str(err)
    lines = table.line_numbers(np.arange(len(table.parts[0])))
    bits = [part.view(np.int64).tolist() for part in table.parts]
    return bits, lines


_ROW = st.tuples(
    st.floats(0, 2e9, allow_nan=False),
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=7, max_size=7),
).map(lambda r: " ".join([f"{r[0]:.9f}", *map(repr, r[1])]))
_NOISE = st.sampled_from(["", "# a comment", "  ", "1 2 3", "nan 0 0 0 0 0 0 1", "\r"])


@pytest.mark.parametrize("slack", [0, 3, 1 << 16])
def test_pieces_cut_at_line_ends_and_keep_every_byte(
    slack: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With no slack every carried line end grows the buffer; with a little, some do.
    monkeypatch.setattr(chunks_module, "_SLACK", slack)
    data = b"1 2\n33 44\n\n555 666\n7"
    for size in range(1, len(data) + 2):
        # A piece lives in a reused buffer until the one two after it: copied at once.
        pieces = [bytes(piece.view()) for piece in file_chunks(io.BytesIO(data), size)]
        assert b"".join(pieces) == data
        assert all(piece.endswith(b"\n") for piece in pieces[:-1])


@needs_compiled
def test_arrays_grow_past_a_low_row_estimate_and_end_exactly_sized() -> None:
    assert table_module._fasttable is not None
    text = b"".join(b"%d %d\n" % (i, 2 * i) for i in range(1000))
    parsed = parse_chunks(
        file_chunks(io.BytesIO(text), 64), table_module._fasttable, widths=(1, 1),
        extra_columns=False, header=False, rows_hint=1,
    )  # fmt: skip
    assert parsed is not None
    (t, x), lines = parsed
    assert t.tolist() == list(range(1000))
    assert x.tolist() == [2 * i for i in range(1000)]
    assert lines.tolist() == list(range(1, 1001))
    assert t.base is None  # each its own exact memory, no view of more
    assert x.base is None


def test_a_non_ascii_piece_sends_the_file_to_the_whole_file_road(tmp_path: Path) -> None:
    path = tmp_path / "a.tum"
    rows = "".join(f"{i}.0 0 0 0 0 0 0 1\n" for i in range(50))
    path.write_text(rows + "# café\n" + rows.replace(".0 ", ".5 "), encoding="utf-8")
    assert _read(path, 64) == _read(path, 1 << 40)
    path.write_bytes(rows.encode() + b"# caf\xe9\n")  # not UTF-8: the same error either way
    assert _read(path, 64) == _read(path, 1 << 40)
    assert "is not UTF-8" in str(_read(path, 64))


@needs_compiled
def test_only_a_file_larger_than_a_piece_is_read_in_pieces(tmp_path: Path) -> None:
    path = tmp_path / "a.tum"
    path.write_text("".join(f"{i}.0 0 0 0 0 0 0 1\n" for i in range(50)))
    size = path.stat().st_size
    calls: list[int] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["rows_hint"])
        return parse_chunks(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "parse_chunks", spy)
        _read(path, size)
        assert calls == []
        _read(path, size // 4)
    assert len(calls) == 1
    assert 50 <= calls[0] <= 60  # the estimate from the first piece's lines


def test_one_core_reads_the_pieces_alone_to_the_same_table(tmp_path: Path) -> None:
    # Pieces are parsed two at a time, the second in a thread, when the process has two
    # cores or more; on one core both are parsed here, in order: the same table either way.
    rows = [f"{k}.5 {k} {2 * k} {3 * k} 0 0 0 1" for k in range(200)]
    rows[57] = "# a comment that leaves a gap in its piece"
    path = tmp_path / "a.tum"
    path.write_text("\n".join(rows) + "\n")
    threaded = _read(path, 97)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunks_module, "CORES", 1)
        alone = _read(path, 97)
    assert alone == threaded == _read(path, 1 << 40)


def _pieces(data: bytes, size: int, max_line: int) -> list[bytes] | int:
    """The pieces of ``data`` as bytes, or the offset a too long line was refused at."""
    try:
        return [bytes(p.view()) for p in file_chunks(io.BytesIO(data), size, max_line=max_line)]
    except chunks_module.LineTooLongError as err:
        return err.offset


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\n", b" ")), max_size=12),
    ending=st.booleans(),
    size=st.integers(1, 40),
    max_line=st.integers(1, 14),
)
def test_a_line_is_refused_only_when_longer_than_the_bound(
    lines: list[bytes], ending: bool, size: int, max_line: int
) -> None:
    data = b"\n".join(lines) + (b"\n" if ending and lines else b"")
    got = _pieces(data, size, max_line)
    longest = max(map(len, lines), default=0)
    if longest <= max_line:  # no line over the bound: every byte, cut at line ends
        assert isinstance(got, list)
        assert b"".join(got) == data
    if isinstance(got, int):  # refused: at the start of a line longer than the bound
        assert got == 0 or data[got - 1 : got] == b"\n"
        assert len(data[got:].split(b"\n", 1)[0]) > max_line


def test_a_file_of_one_long_line_stops_at_the_bound_not_at_its_end() -> None:
    class Counted(io.BytesIO):
        read_bytes = 0

        def readinto(self, buffer: Any) -> int:
            got = super().readinto(buffer)
            Counted.read_bytes += got
            return got

    data = b"1 2 3 4 0 0 0 1\n" * 10 + b"9" * 10_000_000
    handle = Counted(data)
    with pytest.raises(chunks_module.LineTooLongError, match=r"from byte 160$") as caught:
        list(file_chunks(handle, 64, max_line=1000))
    assert caught.value.offset == 160
    assert Counted.read_bytes < 160 + 1000 + 2 * 64  # the bound and a read, not 10 MB


@pytest.mark.parametrize(
    "first", [b"1 2 3 4 0 0 0 1\n", b"nan 2 3 4 0 0 0 1\n"], ids=["compiled", "python"]
)
def test_a_long_line_in_a_large_file_is_one_error_naming_its_line(
    tmp_path: Path, first: bytes
) -> None:
    # Either road of pieces (a `nan` sends the file to the Python road's, as does a build
    # without the C module): read whole, a file of one 10 GB line was held whole.
    if table_module._fasttable is None and not first.startswith(b"nan"):
        pytest.skip("robot_msgs.io._fasttable is not built: the python case is this one")
    path = tmp_path / "est.tum"
    rows = first + b"1 2 3 4 0 0 0 1\n" * 39
    path.write_bytes(b"# t x y z qx qy qz qw\n" + rows + b"5" * 3000 + b"\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "CHUNK_BYTES", 100)
        patch.setattr(chunks_module, "MAX_LINE_BYTES", 1000)
        with pytest.raises(
            FormatError, match=r"est\.tum, line 42: longer than 1000 bytes \(a line of poses"
        ):
            read_table(path, columns=_COLUMNS)


_PYTHON_NOISE = st.sampled_from(
    [
        "",
        "# a comment",
        "# café",
        "  ",
        "nan 0 0 0 0 0 0 1",
        "1,2,3,4,5,6,7,inf",
        "1,,3",
        "1 2 3",
        "\r",
    ]
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rows=st.lists(_ROW, min_size=1, max_size=40),
    noise=st.lists(st.tuples(st.integers(0, 40), _NOISE | _PYTHON_NOISE), max_size=3),
    chunk_bytes=st.integers(8, 300),
    crlf=st.booleans(),
    header=st.booleans(),
    bom=st.booleans(),
    python=st.booleans(),
)
def test_a_table_read_in_pieces_is_the_table_read_whole(
    tmp_path: Path,
    rows: list[str],
    noise: list[tuple[int, str]],
    chunk_bytes: int,
    crlf: bool,
    header: bool,
    bom: bool,
    python: bool,
) -> None:
    """On either road: the compiled one, or the Python one (no C extension, or a file the
    C reader declines: NaN, inf, commas, non-ASCII), whose error is then named alike."""
    lines = ["timestamp tx ty tz qx qy qz qw" if header else "# t x y z", *rows]
    for at, text in noise:  # NaN, inf, commas, non-ASCII, a short row (the error named)
        lines.insert(min(at, len(lines)), text)
    path = tmp_path / "a.tum"
    text = ("\r\n" if crlf else "\n").join(lines) + "\n"
    path.write_bytes(b"\xef\xbb\xbf" * bom + text.encode())
    with pytest.MonkeyPatch.context() as patch:
        if python:
            patch.setattr(table_module, "_fasttable", None)
        whole = _read(path, 1 << 40, header=header)
        assert _read(path, chunk_bytes, header=header) == whole


def test_the_python_road_holds_a_piece_of_a_large_file_not_the_whole(tmp_path: Path) -> None:
    # Read whole, 2e6 poses held 7.8x (TUM) to 13.7x (EuRoC) their float64 at the peak
    # (bench_io.py --rss 2e6): the file's bytes, its text and a str a line at once.
    path = tmp_path / "a.tum"
    path.write_text("".join(f"{k}.5 {k} nan 0 0 0 0 1\n" for k in range(300)))
    sizes: list[int] = []

    def spy(text: str, **kwargs: Any) -> Any:
        sizes.append(len(text))
        return general_rows(text, **kwargs)

    general_rows = table_module._general_rows
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "_general_rows", spy)
        stamps = read_table_parts(path, chunk_bytes=1000)
    assert stamps == [k + 0.5 for k in range(300)]
    assert len(sizes) > 5
    assert max(sizes) < 1100


def read_table_parts(path: Path, *, chunk_bytes: int) -> list[float]:
    """The stamps of the TUM table ``path``, read with ``chunk_bytes`` pieces."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "CHUNK_BYTES", chunk_bytes)
        table = read_table(path, columns=_COLUMNS, split=(1, 3, 4))
    stamps: list[float] = table.parts[0].tolist()
    return stamps


@pytest.mark.parametrize(
    ("tail", "whole_read"),
    [
        (b"", False),  # the bad row's piece names it: the rest of the file has nothing before
        (b"1,,2\n", True),  # an empty comma field further on, which the whole file names first
        (b"# \xff\n", True),  # a byte that is not UTF-8 further on, named first as well
    ],
)
def test_a_bad_row_past_the_first_piece_is_named_without_reading_the_file_again(
    tmp_path: Path, tail: bytes, *, whole_read: bool
) -> None:
    # A large file whose last line was cut while it was written: the Python road read
    # every piece, refused the last, then the whole-file road read it all again to name
    # the line (2e6 poses: 19-20 s of CPU and 1.17 GB, 13-14 s before the pieces; now
    # 7.5 s and 259 MB). Named in its piece unless the rest holds what is named first.
    rows = "".join(f"{k}.5 {k} nan 0 0 0 0 1\n" for k in range(300))
    path = tmp_path / "a.tum"
    path.write_bytes(f"{rows}{rows}1 2 x 4 5 6 7 8\n{rows}".encode() + tail + b"1 2 3\n")
    reads: list[object] = []

    def spy(*args: Any, **kwargs: Any) -> bytes:
        reads.append(args)
        return read_bytes(*args, **kwargs)

    read_bytes = table_module.read_bytes
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table_module, "_fasttable", None)
        whole = _read(path, 1 << 40)
        patch.setattr(table_module, "read_bytes", spy)
        assert _read(path, 1000) == whole
    assert isinstance(whole, str)
    assert bool(reads) == whole_read
