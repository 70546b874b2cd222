"""The values a Parquet column chunk's pages say they hold, read from their page headers.

WHY: pyarrow decodes each data page to the ``num_values`` of *its page header*; the
footer's ``num_values`` for the chunk only tells it when to stop asking for pages. A file
whose footer says 16,384 values, with one dictionary-encoded page of 10^6 zeros, passed a
bound taken from the footer and decoded 8 MB (2e8 values: 1.6 GB), so the bound on a
Parquet result (:func:`robot_msgs.io.result_files.load_result`) counts the page headers
as well. They are Thrift compact-protocol structs (``PageHeader`` of parquet.thrift),
walked here without a Thrift library.

WHY by hand: pyarrow (26.0.1) gives no page header and no memory pool with a cap
(``system``, ``jemalloc``, ``mimalloc``, ``logging``, ``proxy``), so a read cannot be
stopped at a bound; ``ParquetFile.iter_batches(batch_size=1)`` decodes a row whole, and
a result's row is one array (the file above: 10^6 values, 8.1 MB, in its first batch);
the page index is optional, :func:`~robot_msgs.io.result_files.save_result`'s files hold
none (``has_offset_index`` is False), and it counts rows, not values. A Thrift library
(``thrift``, ``thriftpy2``) is a dependency and code generated from parquet.thrift for
the five fields read here. The walk costs 0.35 ms of a 2e5-pose APE result's 0.11 s load
(40 pages, measured).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    _FieldReader = Callable[[int, int], None]  # (field id, Thrift type): reads the value

_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(
    13
)
# PageHeader fields: 2 uncompressed_page_size, 3 compressed_page_size; 5 and 8 the data
# page headers (v1, v2), whose field 1 is num_values. A dictionary page (7) is counted by
# its bytes: its entries are looked up, not decoded into the column.
_DATA_PAGES = frozenset({5, 8})
_MAX_NESTING = 16  # a page header nests two structs deep (statistics in a data page)


class _Reader:
    """A cursor over Thrift compact-protocol bytes; a truncated struct raises ValueError."""

    def __init__(self, data: bytes | memoryview, pos: int, *, max_read: int) -> None:
        self.data = data
        self.pos = pos
        self.read = 0  # bytes read one at a time, at most max_read
        self.max_read = max_read

    def byte(self) -> int:
        if self.pos >= len(self.data):
            msg = "Expected a page header, got the end of the file"
            raise ValueError(msg)
        if self.read == self.max_read:
            msg = f"Expected page headers of at most {self.max_read} bytes in all, got more"
            raise ValueError(msg)
        self.read += 1
        self.pos += 1
        return int(self.data[self.pos - 1])

    def varint(self) -> int:
        value = shift = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7
            if shift > 63:
                msg = "Expected a varint of at most 10 bytes in a page header"
                raise ValueError(msg)

    def integer(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)  # zigzag

    def skip(self, kind: int, depth: int) -> None:
        if depth > _MAX_NESTING:
            msg = f"Expected a page header nested at most {_MAX_NESTING} deep"
            raise ValueError(msg)
        if kind in (_TRUE, _FALSE):
            return
        if kind == _BYTE:
            self.byte()
        elif kind in (_I16, _I32, _I64):
            self.varint()
        elif kind in (_DOUBLE, _BINARY):
            size = 8 if kind == _DOUBLE else self.varint()  # read before pos is
            if size > len(self.data) - self.pos:
                # WHY: moved past the end unread, a list of 2^60 doubles was a loop of
                # 2^60 steps over nothing; checked, every element reads a byte or more.
                msg = f"Expected {size} bytes in a page header, got the end of the file"
                raise ValueError(msg)
            self.pos += size
        elif kind in (_LIST, _SET):
            head = self.byte()
            size = head >> 4 if head >> 4 != 15 else self.varint()
            for _ in range(size):
                self.skip(_element(head & 0x0F), depth + 1)
        elif kind == _MAP:
            size = self.varint()
            types = self.byte() if size else 0
            for _ in range(size):
                self.skip(_element(types >> 4), depth + 1)
                self.skip(_element(types & 0x0F), depth + 1)
        elif kind == _STRUCT:
            self.fields(lambda _field, kind: self.skip(kind, depth + 1))
        else:
            msg = f"Expected a Thrift type 1 to 12 in a page header, got {kind}"
            raise ValueError(msg)

    def fields(self, each: _FieldReader) -> None:
        """Read a struct's fields up to its stop byte, each by ``each``."""
        field = 0
        while (head := self.byte()) != _STOP:
            field = field + (head >> 4) if head >> 4 else self.integer()
            each(field, head & 0x0F)


def _element(kind: int) -> int:
    """Return the type to skip an element of a list, set or map by: a bool there is a byte.

    WHY: a bool field has its value in its type, but a bool element does not; read as
    no bytes, a map of 2^60 bools was a loop of 2^60 steps over nothing.
    """
    return _BYTE if kind in (_TRUE, _FALSE) else kind


def chunk_pages(
    data: bytes | memoryview, start: int, length: int, *, max_pages: int, max_header_bytes: int
) -> tuple[int, int, int, int]:
    """Return the values, uncompressed bytes, pages and header bytes in a column chunk.

    Parameters
    ----------
    data : bytes
        The whole Parquet file.
    start, length : int
        A column chunk: its first page's offset and its ``total_compressed_size``.
    max_pages : int
        How many pages to read at most. WHY: a page header is read in about 14 us here,
        against 2 in pyarrow: a file of 33-byte pages walked at 2.3 MB/s (measured), 7
        minutes for 1 GiB; a writer's pages are about 1 MiB.
    max_header_bytes : int
        How many bytes of page headers to read at most, one at a time (the bytes of a
        binary value, such as a statistic, are stepped over, not read). WHY: a header is read a byte
        at a time, about 1 us a byte (measured on a header of 10^6 bool fields, which
        a reader skips as unknown): 1 GiB of such headers, under 1,000 pages, was
        17 minutes. pyarrow writes 30 to 80 bytes a header.

    Returns
    -------
    values, uncompressed, pages, header_bytes : int
        The sums of the data pages' ``num_values`` and of every page's
        ``uncompressed_page_size`` (a dictionary page's too), the number of pages and
        the bytes of their headers read one at a time.

    Raises
    ------
    ValueError
        A page header is cut short or malformed, the chunk lies outside the file, or it
        holds more than ``max_pages`` pages or ``max_header_bytes`` bytes of headers.

    Examples
    --------
    >>> import io, pyarrow as pa, pyarrow.parquet as pq
    >>> sink = io.BytesIO()
    >>> pq.write_table(pa.table({"x": [i / 2 for i in range(1000)]}), sink)
    >>> data = sink.getvalue()
    >>> chunk = pq.ParquetFile(io.BytesIO(data)).metadata.row_group(0).column(0)
    >>> start = chunk.dictionary_page_offset or chunk.data_page_offset
    >>> size = chunk.total_compressed_size
    >>> chunk_pages(data, start, size, max_pages=10, max_header_bytes=1000)  # and a dictionary
    (1000, 9260, 2, 51)
    """
    end = start + length
    if start < 0 or end > len(data):
        msg = f"Expected a column chunk within the file's {len(data)} bytes, got {start}..{end}"
        raise ValueError(msg)
    reader = _Reader(data, start, max_read=max_header_bytes)
    page = {2: 0, 3: 0, 1: 0}  # uncompressed and compressed sizes; 1: its num_values

    def page_field(field: int, kind: int) -> None:
        if field in (2, 3) and kind == _I32:
            page[field] = reader.integer()
        elif field in _DATA_PAGES and kind == _STRUCT:
            reader.fields(page_header_field)
        else:
            reader.skip(kind, 1)

    def page_header_field(field: int, kind: int) -> None:
        if field == 1 and kind == _I32:
            page[1] += reader.integer()
        else:
            reader.skip(kind, 2)

    values = uncompressed = pages = 0
    while reader.pos < end:
        if pages == max_pages:
            msg = f"Expected at most {max_pages} pages in the file's column chunks, got more"
            raise ValueError(msg)
        page.update({1: 0, 2: 0, 3: 0})
        reader.fields(page_field)
        if min(page.values()) < 0:
            msg = f"Expected page sizes and a count of values >= 0 at byte {reader.pos}"
            raise ValueError(msg)
        values += page[1]
        uncompressed += page[2]
        reader.pos += page[3]
        pages += 1
    return values, uncompressed, pages, reader.read
