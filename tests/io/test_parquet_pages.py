"""The page headers of a Parquet column chunk, walked for the bound on a Parquet result."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.io.parquet_pages import chunk_pages, footer_chunks
from tests.hostile import deadline

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

_MOST = b"\xff\xff\xff\xff\x07"  # a varint of 2^31 - 1, the most a Thrift size is


def _one_chunk(values: list[float], **options: object) -> tuple[bytes, int, int]:
    """Return a Parquet file of one float column, its chunk's first page and its length."""
    sink = io.BytesIO()
    pq.write_table(pa.table({"x": values}), sink, **options)
    data = sink.getvalue()
    chunk = pq.ParquetFile(io.BytesIO(data)).metadata.row_group(0).column(0)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    return data, start, chunk.total_compressed_size


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_the_pages_hold_the_values_the_footer_says(version: str) -> None:
    data, start, length = _one_chunk(
        [i / 4 for i in range(5000)], data_page_size=1024, data_page_version=version
    )
    values, _, pages, _ = chunk_pages(data, start, length, max_pages=1000, max_header_bytes=10**6)
    assert values == 5000
    assert pages > 2


@pytest.mark.parametrize(
    ("told", "lie"),
    [
        (b"\x15\x04\x19\x2c", b"\x15\x04\x19\x2d"),  # the schema's 2 structs said uuids
        (b"\x19\x35\x00\x06\x10", b"\x19\x37\x00\x06\x10"),  # 3 encodings said doubles
        (b"\x19\x18\x01x", b"\x19\x11\x01x"),  # path_in_schema's string said a bool
    ],
    ids=["schema", "encodings", "path"],
)
def test_a_footer_list_said_of_other_elements_is_read_as_pyarrow_reads_it(
    told: bytes, lie: bytes
) -> None:
    """Thrift reads a list field it knows as the elements parquet.thrift declares, whatever
    the list's header says; a walk by the header stepped 16 bytes a schema element, 8 an
    encoding, and lost its place in the footer (the chunk counts then are any bytes)."""
    data = _one_chunk([i / 2 for i in range(1000)])[0]
    footer_at = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    assert data.count(told, footer_at) == 1
    changed = data[:footer_at] + data[footer_at:].replace(told, lie)
    assert pq.read_metadata(pa.BufferReader(changed)).equals(
        pq.read_metadata(pa.BufferReader(data))
    )
    read = footer_chunks(data, max_header_bytes=10**4)[:2]
    assert footer_chunks(changed, max_header_bytes=10**4)[:2] == read


def test_a_chunk_of_more_pages_than_allowed_is_refused() -> None:
    """A page header takes about 14 us here: a file of 33-byte pages walked at 2.3 MB/s."""
    data, start, length = _one_chunk([1.0] * 100, data_page_size=1, write_batch_size=1)
    with pytest.raises(ValueError, match=r"^Expected at most 10 pages in the file's column chunks"):
        chunk_pages(data, start, length, max_pages=10, max_header_bytes=1000)


def test_a_map_of_bools_in_a_page_header_is_read_a_byte_each() -> None:
    """Read as no bytes, a map declaring 2^31 - 1 bool entries was a loop of 2^31 steps."""
    header = bytes([0x1B]) + _MOST + b"\x11"  # field 1: map
    with (
        deadline(10),
        pytest.raises(ValueError, match=r"^Expected a Thrift struct, got the end of the file$"),
    ):
        chunk_pages(header, 0, len(header), max_pages=10, max_header_bytes=1000)


@pytest.mark.parametrize(
    ("header", "size"),
    [
        (bytes([0x19, 0xF7]) + _MOST, 8 * (2**31 - 1)),  # field 1: list
        (bytes([0x1B]) + _MOST + b"\x77", 16 * (2**31 - 1)),  # field 1: map
    ],
    ids=["list", "map"],
)
def test_a_collection_of_doubles_in_a_page_header_is_stepped_over_at_once(
    header: bytes, size: int
) -> None:
    """A double was stepped over one at a time, each checked against the file's end:
    2^31 - 1 of them before 32 MiB of zeros took 4.4 s (8.8 s for 64 MiB), 1 GiB 140 s."""
    data = header + bytes(32 << 20)
    with (
        deadline(2),
        pytest.raises(ValueError, match=rf"^Expected {size} bytes in a Thrift struct, got the end"),
    ):
        chunk_pages(data, 0, len(header), max_pages=10, max_header_bytes=1000)


def test_page_headers_past_the_bytes_allowed_are_refused() -> None:
    """A header is read a byte at a time (about 1 us a byte), and a reader skips fields it
    does not know: 1 GiB of headers of bool fields was 17 minutes."""
    header = bytes([0x91]) + bytes([0x11]) * 10_000 + b"\x00"  # 10,001 bool fields: 9, 10, ...
    with pytest.raises(ValueError, match=r"^Expected Thrift structs of at most 1000 bytes in all"):
        chunk_pages(header, 0, len(header), max_pages=10, max_header_bytes=1000)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120), st.data())
def test_any_bytes_are_pages_or_a_value_error(data: bytes, draw: st.DataObject) -> None:
    start = draw.draw(st.integers(0, len(data)))
    length = draw.draw(st.integers(0, len(data) - start))
    try:
        values, uncompressed, pages, read = chunk_pages(
            data, start, length, max_pages=50, max_header_bytes=100
        )
    except ValueError:
        return
    assert min(values, uncompressed) >= 0
    assert pages <= 50
    assert read <= 100
