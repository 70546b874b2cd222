"""The column chunks of a Parquet file and the values their pages hold, read from its bytes.

WHY: pyarrow decodes each data page to the ``num_values`` of *its page header*; the
footer's ``num_values`` for the chunk only tells it when to stop asking for pages. A file
whose footer says 16,384 values, with one dictionary-encoded page of 10^6 zeros, passed a
bound taken from the footer and decoded 8 MB (2e8 values: 1.6 GB), so the bound on a
Parquet result (:func:`robot_msgs.io.result_files.load_result`) counts the page headers
as well. The footer (``FileMetaData``) and the page headers (``PageHeader``) are Thrift
compact-protocol structs of parquet.thrift, walked here without a Thrift library.

WHY the footer by hand too: pyarrow (26.0.1) gives a chunk's counts only through its
column chunk metadata (``FileMetaData.row_group(i).column(j)``, ``to_dict`` goes
through it), built with a C++ exception Python cannot catch: a footer whose size
statistics are damaged ("Definition level histogram size mismatch", apache/arrow#45283)
aborts the process (SIGABRT, exit 134; 9 of 3000 results with bytes changed, measured),
where ``ParquetFile.read`` raises an ``OSError``. Nor through a copy pyarrow writes
(``FileMetaData.write_metadata_file``): a footer that names an encryption algorithm
(a plaintext footer, which pyarrow reads without a key) is written through an encryptor
it does not have, and the process dies (SIGSEGV, exit 139; a result that loads
otherwise). The footer is read as pyarrow's Thrift reads it: a list field it knows is
read as the elements parquet.thrift declares, whatever the list's header says (one
byte changed, structs said to be uuids, was read two ways), so every list field of
every struct of the footer is declared in :data:`_FILE`, and a field it does not know
is skipped as its bytes say (measured against pyarrow's written copy, the road
91258ca took: the same chunks in 14,000 footers with bytes changed that pyarrow opens,
every list header's element type among them). Page headers hold no lists. Both are
read as pyarrow's Thrift reads them: an ``i32`` is the low 32 bits of its varint, a
field id 16 bits, a field type 0 ends a struct.

WHY by hand at all: pyarrow gives no page header and no memory pool with a cap
(``system``, ``jemalloc``, ``mimalloc``, ``logging``, ``proxy``), so a read cannot be
stopped at a bound; ``ParquetFile.iter_batches(batch_size=1)`` decodes a row whole, and
a result's row is one array (the file above: 10^6 values, 8.1 MB, in its first batch);
the page index is optional, :func:`~robot_msgs.io.result_files.save_result`'s files hold
none (``has_offset_index`` is False), and it counts rows, not values. A Thrift library
(``thrift``, ``thriftpy2``) is a dependency and code generated from parquet.thrift for
the few fields read here. The walk (footer and pages) costs 0.7 ms of a 2e5-pose
APE result's 0.24 s load, 2.5 ms of a 2e5-pose rpg drift result's 1.5 s (100 arrays;
best of 7, measured on a shared 2-core machine).
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(
    13
)
_UUID = 13  # 16 bytes (Thrift 0.19 on)
_WIDTH = {_STOP: 0, _DOUBLE: 8, _UUID: 16}  # the types read as so many bytes, not one by one
_MAX_NESTING = 16  # a footer nests five structs deep (statistics in a column's metadata)

# The fields read, by struct: a Thrift type, a struct's fields (a dict) or a list of
# its elements' type or struct ([int] or [dict]); any other field, or one of another
# type, is skipped, as Thrift does. WHY every list field of parquet.thrift is here, with
# every struct that holds one: Thrift reads a known list as its declared elements.
_Spec: TypeAlias = "dict[int, int | _Spec | list[int | _Spec]]"
# KeyValue, SchemaElement, ColumnOrder, SortingColumn, PageEncodingStats: no list in them
_LISTLESS: _Spec = {}
_COLUMN_META: _Spec = {
    2: [_I32],  # encodings
    3: [_BINARY],  # path_in_schema
    5: _I64,  # num_values
    6: _I64,  # total_uncompressed_size
    7: _I64,  # total_compressed_size
    8: [_LISTLESS],  # key_value_metadata
    9: _I64,  # data_page_offset
    11: _I64,  # dictionary_page_offset
    13: [_LISTLESS],  # encoding_stats
    16: {2: [_I64], 3: [_I64]},  # size_statistics: the level histograms
    17: {2: [_I32]},  # geospatial_statistics: geospatial_types
}
_COLUMN_CHUNK: _Spec = {3: _COLUMN_META, 8: {2: {1: [_BINARY]}}}  # 8: crypto_metadata
_ROW_GROUP: _Spec = {1: [_COLUMN_CHUNK], 4: [_LISTLESS]}  # columns, sorting_columns
# FileMetaData: schema, row_groups, key_value_metadata, created_by, column_orders
_FILE: _Spec = {2: [_LISTLESS], 4: [_ROW_GROUP], 5: [_LISTLESS], 6: _BINARY, 7: [_LISTLESS]}
# PageHeader: 2 uncompressed_page_size, 3 compressed_page_size; 5 and 8 the data page
# headers (v1, v2), whose field 1 is num_values. A dictionary page (7) is counted by its
# bytes: its entries are looked up, not decoded into the column.
_PAGE: _Spec = {2: _I32, 3: _I32, 5: {1: _I32}, 8: {1: _I32}}
_Struct: TypeAlias = "dict[int, object]"


class ColumnChunk(NamedTuple):
    """A column chunk as its footer says, its bytes where pyarrow reads them."""

    start: int  # its dictionary page, where it has one before its first data page
    length: int  # total_compressed_size
    num_values: int
    uncompressed: int  # total_uncompressed_size


class _Reader:
    """A cursor over Thrift compact-protocol bytes; a truncated struct raises ValueError."""

    def __init__(
        self, data: bytes | memoryview, pos: int, *, max_read: int, end: int | None = None
    ) -> None:
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end  # the struct's bytes end there
        self.read = 0  # bytes read one at a time, at most max_read
        self.max_read = max_read

    def byte(self) -> int:
        if self.pos >= self.end:
            msg = "Expected a Thrift struct, got the end of the file"
            raise ValueError(msg)
        if self.read == self.max_read:
            msg = f"Expected Thrift structs of at most {self.max_read} bytes in all, got more"
            raise ValueError(msg)
        self.read += 1
        self.pos += 1
        return int(self.data[self.pos - 1])

    def varint(self) -> int:
        """Read a varint of at most 10 bytes, its low 64 bits (as Thrift's C++ reads it)."""
        value = 0
        for shift in range(0, 70, 7):
            b = self.byte()
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value & (1 << 64) - 1
        msg = "Expected a varint of at most 10 bytes in a Thrift struct"
        raise ValueError(msg)

    def integer(self, bits: int = 64) -> int:
        """Read a zigzag integer of ``bits`` (32: the varint's low 32 bits, as Thrift does)."""
        n = self.varint() & (1 << bits) - 1
        return (n >> 1) ^ -(n & 1)

    def size(self) -> int:
        """Read a binary's or a container's size, an i32 that must be >= 0."""
        size = _signed(self.varint(), 32)
        if size < 0:
            msg = f"Expected a size >= 0 in a Thrift struct, got {size}"
            raise ValueError(msg)
        return size

    def jump(self, size: int) -> None:
        """Step over ``size`` bytes, which must be there."""
        if size > self.end - self.pos:
            msg = f"Expected {size} bytes in a Thrift struct, got the end of the file"
            raise ValueError(msg)
        self.pos += size

    def binary(self) -> bytes:
        self.jump(size := self.size())
        return bytes(self.data[self.pos - size : self.pos])

    def skip(self, kind: int, depth: int) -> None:
        if depth > _MAX_NESTING:
            msg = f"Expected a Thrift struct nested at most {_MAX_NESTING} deep"
            raise ValueError(msg)
        if kind in _WIDTH:  # a stop element is no bytes, as Thrift skips it
            self.jump(_WIDTH[kind])
        elif kind in (_TRUE, _FALSE):
            return
        elif kind == _BYTE:
            self.byte()
        elif kind in (_I16, _I32, _I64):
            self.varint()
        elif kind == _BINARY:
            self.binary()
        elif kind in (_LIST, _SET, _MAP):
            if kind == _MAP:
                size = self.size()
                types = self.byte() if size else 0
                kinds: tuple[int, ...] = (_element(types >> 4), _element(types & 0x0F))
            else:
                size, element = self.list_size()
                kinds = (element,)
            if all(k in _WIDTH for k in kinds):
                # WHY: stepped over one by one, 2^31 - 1 doubles said in a page header
                # were a loop of a step a double over the file (1 GiB: 2^27 steps).
                self.jump(size * sum(_WIDTH[k] for k in kinds))
                return
            for _ in range(size):  # each element reads a byte or more
                for k in kinds:
                    self.skip(k, depth + 1)
        elif kind == _STRUCT:
            self.struct({}, {}, depth + 1)
        else:
            msg = f"Expected a Thrift type 1 to 13 in a Thrift struct, got {kind}"
            raise ValueError(msg)

    def list_size(self) -> tuple[int, int]:
        """Read a list's or a set's size and the type of its elements."""
        head = self.byte()
        return (head >> 4 if head >> 4 != 15 else self.size()), _element(head & 0x0F)

    def struct(self, spec: _Spec, into: _Struct, depth: int) -> _Struct:
        """Read a struct's fields up to its stop byte into ``into``, those ``spec`` names."""
        field = 0
        while (kind := (head := self.byte()) & 0x0F) != _STOP:  # Thrift stops at 0x10 too
            delta = head >> 4
            field = _signed(field + delta if delta else self.integer(32), 16)
            want = spec.get(field)
            if isinstance(want, dict) and kind == _STRUCT:  # said twice: one struct, as Thrift
                old = into.get(field)
                into[field] = self.struct(want, old if isinstance(old, dict) else {}, depth + 1)
            elif isinstance(want, list) and kind == _LIST:
                # WHY: Thrift reads a list's elements as the field's type, not the list's
                size, _ = self.list_size()
                element = want[0]
                if isinstance(element, dict):
                    into[field] = [self.struct(element, {}, depth + 1) for _ in range(size)]
                else:  # each element reads a byte or more
                    for _ in range(size):
                        self.skip(element, depth + 1)
            elif want == kind == _BINARY:
                into[field] = self.binary()
            elif want == kind:
                into[field] = self.integer(32 if kind == _I32 else 64)
            else:
                self.skip(kind, depth)
        return into


def _signed(value: int, bits: int) -> int:
    """Return the two's complement ``bits``-bit integer in ``value``'s low bits."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _element(kind: int) -> int:
    """Return the type to skip an element of a list, set or map by: a bool there is a byte.

    WHY: a bool field has its value in its type, but a bool element does not; read as
    no bytes, a map of 2^31 - 1 bools was a loop of 2^31 steps over nothing.
    """
    return _BYTE if kind in (_TRUE, _FALSE) else kind


def _int(struct: _Struct, field: int) -> int:
    value = struct.get(field, 0)
    return value if isinstance(value, int) else 0


def _structs(struct: _Struct, field: int) -> list[_Struct]:
    value = struct.get(field, [])
    return [s for s in value if isinstance(s, dict)] if isinstance(value, list) else []


def footer_chunks(
    data: bytes | memoryview, *, max_header_bytes: int
) -> tuple[str, list[list[ColumnChunk]], int]:
    """Return a Parquet file's writer, its row groups' column chunks and the bytes read.

    Parameters
    ----------
    data : bytes
        The whole Parquet file.
    max_header_bytes : int
        How many bytes of the footer to read at most, one at a time (see
        :func:`chunk_pages`).

    Returns
    -------
    created_by : str
        The writer as the file names it ("" where it does not).
    row_groups : list of list of ColumnChunk
        Each row group's column chunks, in the order of the schema's columns.
    read : int
        The bytes read one at a time.

    Raises
    ------
    ValueError
        The footer is cut short, malformed or longer than ``max_header_bytes``.

    Examples
    --------
    >>> import io, pyarrow as pa, pyarrow.parquet as pq
    >>> sink = io.BytesIO()
    >>> pq.write_table(pa.table({"x": [i / 2 for i in range(1000)]}), sink)
    >>> writer, groups, _ = footer_chunks(sink.getvalue(), max_header_bytes=10**4)
    >>> writer.startswith("parquet-cpp-arrow"), groups
    (True, [[ColumnChunk(start=4, length=5286, num_values=1000, uncompressed=9343)]])
    """
    end = len(data) - 8
    size = int.from_bytes(data[end : end + 4], "little") if end >= 4 else -1
    if bytes(data[end + 4 :]) != b"PAR1" or not 0 <= size <= end - 4:
        msg = f"Expected a Parquet footer at the end of the file's {len(data)} bytes"
        raise ValueError(msg)
    reader = _Reader(data, end - size, max_read=max_header_bytes, end=end)
    footer = reader.struct(_FILE, {}, 0)
    groups = []
    for group in _structs(footer, 4):
        chunks = []
        for chunk in _structs(group, 1):
            meta = chunk.get(3)  # pyarrow reads a chunk without as one of no values
            meta = meta if isinstance(meta, dict) else {}
            start = _int(meta, 9)
            if 11 in meta and 0 < _int(meta, 11) < start:  # as pyarrow's ComputeColumnChunkRange
                start = _int(meta, 11)
            chunks.append(ColumnChunk(start, _int(meta, 7), _int(meta, 5), _int(meta, 6)))
        groups.append(chunks)
    writer = footer.get(6, b"")
    return (
        (writer.decode("utf-8", "replace") if isinstance(writer, bytes) else ""),
        groups,
        reader.read,
    )


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
    >>> chunk = footer_chunks(sink.getvalue(), max_header_bytes=10**4)[1][0][0]
    >>> chunk_pages(sink.getvalue(), chunk.start, chunk.length, max_pages=10, max_header_bytes=99)
    (1000, 9260, 2, 51)
    """
    end = start + length
    if start < 0 or length < 0 or end > len(data):
        msg = f"Expected a column chunk within the file's {len(data)} bytes, got {start}..{end}"
        raise ValueError(msg)
    reader = _Reader(data, start, max_read=max_header_bytes)
    values = uncompressed = pages = 0
    while reader.pos < end:
        if pages == max_pages:
            msg = f"Expected at most {max_pages} pages in the file's column chunks, got more"
            raise ValueError(msg)
        page = reader.struct(_PAGE, {}, 0)
        counts = [_int(page, 2), _int(page, 3)]
        headers = [header for header in (page.get(5), page.get(8)) if isinstance(header, dict)]
        counts += [_int(header, 1) for header in headers]
        if min(counts) < 0:
            msg = f"Expected page sizes and a count of values >= 0 at byte {reader.pos}"
            raise ValueError(msg)
        values += sum(counts[2:])
        uncompressed += counts[0]
        reader.pos += counts[1]
        pages += 1
    return values, uncompressed, pages, reader.read
