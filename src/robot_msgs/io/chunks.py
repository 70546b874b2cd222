r"""A large text table read piece by piece by the compiled fast path, into arrays that grow.

WHY: reading a file whole holds its bytes and the arrays parsed from them at once. A
10^7-pose TUM file is 1.09 GB of text for 0.64 GB of float64, so ``robot-msgs ape`` on
two of them peaked at 3.26 GB, 2.55x the 1.28 GB of arrays it has to hold (measured with
``benchmarks/bench_scale.py``). Read in pieces of a few MiB that end at a line end, the
text held at once is one piece, and the arrays grow in place: NumPy's ``resize`` is a
``realloc``, which glibc serves for large blocks with ``mremap``, moving no bytes.

The pieces go through the same C parser as a whole file (``robot_msgs.io._fasttable``),
so the values and line numbers are bit for bit those of a whole-file read; whatever it
declines in any piece (and any piece that is not ASCII) sends the whole file back to the
whole-file road, where the one set of rules and error messages lives.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, NamedTuple, Protocol

import numpy as np

from robot_msgs.limits import usable_cpus

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence
    from concurrent.futures import ThreadPoolExecutor
    from io import BufferedIOBase

    from robot_msgs.typing import Float64Array, Int64Array

__all__ = [
    "CORES",
    "MAX_LINE_BYTES",
    "CompiledTable",
    "LineTooLongError",
    "Piece",
    "allocate_parts",
    "file_chunks",
    "parse_chunks",
    "resize_rows",
]

#: Bytes a reused read buffer keeps beyond a piece: the longest line carried without growing.
_SLACK = 1 << 16

#: The most bytes read past a line's start without its end (a pose line is about 100
#: bytes): a line still open that far at the end of a read is refused there, so a buffer
#: never grows past about a piece plus this (a file of one 10 GB line held 10 GB). A long
#: line that ends inside a read (a 5 MB comment) costs no memory and reaches the parser,
#: which reads or names it as any other line.
MAX_LINE_BYTES = 1 << 20


class LineTooLongError(ValueError):
    """A line longer than ``limit`` bytes; ``offset`` is the byte where it starts."""

    def __init__(self, offset: int, limit: int) -> None:
        self.offset, self.limit = offset, limit
        super().__init__(f"a line longer than {self.limit_text} from byte {offset}")

    @property
    def limit_text(self) -> str:
        """The limit as people say it: ``"1 MiB"``, ``"1000 bytes"``."""
        mib, rest = divmod(self.limit, 1 << 20)
        return f"{mib} MiB" if mib and not rest else f"{self.limit} bytes"


#: Cores this process may use: with one, pieces are parsed in this thread alone.
CORES = usable_cpus()


class CompiledTable(Protocol):
    r"""The interface of ``robot_msgs.io._fasttable`` (``_fasttable.c``), typed here once.

    ``count_lines(data)`` is ``data.count(b"\n") + 1``, the most rows ``data`` can
    hold (-1 with ``ascii_only`` when a byte of ``data`` is not ASCII); ``parse`` fills
    ``parts`` (the column groups, in order) and ``lines`` (the 1-based line of each row
    within ``data``) and returns the rows written, or -1 when it declines the input (a
    piece without rows included).
    """

    def count_lines(
        self,
        data: bytes | bytearray | memoryview,
        ascii_only: bool = False,  # noqa: FBT001, FBT002 - the C function takes it by position
        /,
    ) -> int:
        """Return the most rows ``data`` can hold, or -1 (``ascii_only``) for non-ASCII bytes."""

    def parse(
        self,
        data: bytes | bytearray,
        extra_columns: bool,  # noqa: FBT001 - the C function takes its arguments by position
        header: bool,  # noqa: FBT001 - as above
        parts: tuple[Float64Array, ...],
        lines: Int64Array,
        length: int = -1,
        /,
    ) -> int:
        """Fill ``parts`` and ``lines``; return the rows written, or -1 to decline.

        ``data`` is bytes, or with ``length`` a buffer whose first ``length`` bytes are
        the text (a NUL is written after them).
        """


class Piece(NamedTuple):
    """``length`` bytes of a file at the start of a reused ``buffer`` (:func:`file_chunks`).

    The buffer has room for a byte past the text, which the parser overwrites with its
    NUL sentinel; it is refilled by the piece two after this one.
    """

    buffer: bytearray
    length: int

    def view(self) -> memoryview:
        """Return the piece's bytes, without a copy."""
        return memoryview(self.buffer)[: self.length]


def allocate_parts(rows: int, widths: tuple[int, ...]) -> tuple[Float64Array, ...]:
    """Return empty parts for ``rows`` rows: ``(rows,)`` for width 1 when split, else 2-D.

    Examples
    --------
    >>> [part.shape for part in allocate_parts(5, (1, 3, 4))], allocate_parts(2, (1,))[0].shape
    ([(5,), (5, 3), (5, 4)], (2, 1))
    """
    if len(widths) == 1:
        return (np.empty((rows, widths[0]), dtype=np.float64),)
    return tuple(np.empty((rows, w) if w > 1 else rows, dtype=np.float64) for w in widths)


def file_chunks(
    handle: BufferedIOBase, size: int, *, max_line: int | None = None
) -> Iterator[Piece]:
    r"""Yield the bytes of ``handle`` in pieces of about ``size`` bytes, each ending at a ``\n``.

    Only the last piece may lack its line end; a line longer than ``size`` makes a longer
    piece. Reading stops with :class:`LineTooLongError` once the bytes read since the last
    line end exceed ``max_line`` (default :data:`MAX_LINE_BYTES`; a file without any
    ``\n`` is read no further than that), so a buffer never grows past about ``size +
    max_line`` plus one read. A long line with line ends read after it in the same read
    is left to the parser.

    WHY two reused buffers, read into:
    ``read`` makes a new bytes object a piece, and cutting it at its last line end and
    joining the rest to the next one copied every byte twice more, into new memory each
    time (85-119 ms of a 107 MB file's 170 ms read, against 32-38 ms read into these).
    So a piece is valid until the one two after it is made: use it (or copy it) first.

    Examples
    --------
    >>> import io
    >>> [bytes(piece.view()) for piece in file_chunks(io.BytesIO(b"1 2\n3 4\n5 6"), 5)]
    [b'1 2\n', b'3 4\n', b'5 6']
    """
    # Room for a carried line end (less than a line) past a full read, and the sentinel:
    # a buffer grows (a copy) only for a line longer than the slack.
    if max_line is None:
        max_line = MAX_LINE_BYTES
    buffers = [bytearray(size + _SLACK + 1), bytearray(size + _SLACK + 1)]
    carry = b""  # the bytes after the last line end of the previous read
    turn = 0
    start = 0  # the file offset of the buffer's first byte
    while True:
        buffer = buffers[turn]
        buffer[: len(carry)] = carry
        filled, ended = len(carry), False
        line = len(carry)  # bytes since the last line end
        while True:  # fill to size at least, and on until a line end or the end of file
            room = len(buffer) - 1 - filled  # the last byte is the sentinel's
            if room == 0:  # only inside a line longer than the slack: grow (a copy)
                buffer.extend(bytes(size))
                room = size
            view = memoryview(buffer)
            got = handle.readinto(view[filled : filled + min(size, room)])
            view.release()
            if not got:
                ended = True
                break
            filled += got
            end = buffer.rfind(b"\n", filled - got, filled)
            line = filled - end - 1 if end >= 0 else line + got
            if line > max_line:
                raise LineTooLongError(start + filled - line, max_line)
            if filled >= size and end >= 0:
                break
        if filled == 0:
            return
        cut = filled if ended else buffer.rfind(b"\n", 0, filled) + 1
        carry = bytes(buffer[cut:filled])  # less than a line: the next buffer starts with it
        start += cut
        yield Piece(buffer, cut)
        if ended:  # the piece took every byte left
            return
        turn ^= 1


def resize_rows(parts: Sequence[Float64Array], lines: Int64Array, rows: int) -> None:
    """Resize every part and ``lines`` to ``rows`` rows in place (``realloc``, no copy)."""
    for part in parts:
        part.resize((rows, *part.shape[1:]), refcheck=False)
    lines.resize(rows, refcheck=False)


def parse_chunks(
    chunks: Iterable[Piece],
    compiled: CompiledTable,
    *,
    widths: tuple[int, ...],
    extra_columns: bool,
    header: bool,
    rows_hint: int,
) -> tuple[tuple[Float64Array, ...], Int64Array] | None:
    r"""Parse ``chunks`` (consecutive pieces of one file, each ending at a line end) as one table.

    Parameters
    ----------
    chunks : iterable of Piece
        The file's bytes in order, cut at line ends (:func:`file_chunks`): each is used
        before the one two after it is asked for.
    compiled : CompiledTable
        The compiled parser.
    widths : tuple of int
        The column groups' widths (see :func:`robot_msgs.io.table.parse_table`'s ``split``).
    extra_columns, header : bool
        As for :func:`robot_msgs.io.table.parse_table`; ``header`` applies to the first
        data line of the file, so to the first piece only.
    rows_hint : int
        The rows to allocate first (an estimate; the arrays grow or shrink as needed).

    Returns
    -------
    tuple or None
        ``(parts, lines)``: the column groups, each exactly ``(N,)`` or ``(N, w)`` and its
        own memory, and the 1-based file line of each row ``(N,)`` int64; or None when a
        piece is not ASCII or the compiled parser declines one (as it declines a piece
        without a data row: a file with megabytes of comments is read whole).

    Examples
    --------
    >>> import io, robot_msgs.io.table as table
    >>> if table._fasttable is not None:  # built without a compiler: nothing to show
    ...     text = io.BytesIO(b"# t x\n1 2\n3 4\n\n5 6\n")
    ...     (values,), lines = parse_chunks(
    ...         file_chunks(text, 12), table._fasttable, widths=(2,), extra_columns=False,
    ...         header=False, rows_hint=1,
    ...     )
    ...     print(values.tolist(), lines.tolist())
    [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [2, 3, 5]
    """
    capacity = max(rows_hint, 1)
    parts = list(allocate_parts(capacity, widths))
    lines: Int64Array = np.empty(capacity, dtype=np.int64)
    rows = 0
    line_base = 0  # lines before the current piece
    first = True
    # Two pieces at a time, the second parsed in a thread while this one parses the first
    # (the compiled parser releases the GIL): each gets room for all its lines, and the
    # second's rows move down over the room the first did not use (a blank or comment line).
    # The thread is started for a file of two pieces or more, so a small file's command
    # does not import concurrent.futures (and logging with it: 3 ms of start-up), and only
    # in the main thread: a reader in another thread runs beside others already (two files
    # read side by side, io/side_by_side.py: 4 threads on 2 cores were 0.94x one by one's
    # wall at 10^6 poses, 2 threads 0.87x, 10 and 20 alternated pairs).
    pool: ThreadPoolExecutor | None = None
    pieces = iter(chunks)
    try:
        # Two pieces at a time (the last alone when their number is odd).
        while wave := list(itertools.islice(pieces, 2)):
            if pool is None and len(wave) == 2 and CORES > 1 and _main_thread():
                from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

                pool = ThreadPoolExecutor(1)
            # The line ends, and -1 for a piece that is not ASCII (one pass over its bytes).
            most = [compiled.count_lines(piece.view(), True) for piece in wave]  # noqa: FBT003
            if min(most) < 0:
                return None
            if rows + sum(most) > capacity:
                capacity = max(rows + sum(most), capacity + capacity // 2)
                resize_rows(parts, lines, capacity)
            starts = [rows, rows + most[0]]
            views = [
                tuple(part[a : a + m] for part in parts) for a, m in zip(starts, most, strict=False)
            ]
            heads = [header and first, False]
            jobs = [
                (piece.buffer, extra_columns, heads[k], views[k], lines[starts[k] :], piece.length)
                for k, piece in enumerate(wave)
            ]
            second = pool.submit(compiled.parse, *jobs[1]) if pool and len(wave) == 2 else None
            got = [compiled.parse(*jobs[0])]
            if len(wave) == 2:
                got.append(second.result() if second else compiled.parse(*jobs[1]))
            del views, jobs  # no view may outlive a resize
            for k, n in enumerate(got):
                if n < 0:
                    return None
                if starts[k] != rows:  # close the gap the previous piece left
                    for part in parts:
                        part[rows : rows + n] = part[starts[k] : starts[k] + n]
                    lines[rows : rows + n] = lines[starts[k] : starts[k] + n]
                lines[rows : rows + n] += line_base
                rows += n
                line_base += most[k] - 1
            first = False
    finally:
        if pool is not None:
            pool.shutdown()
    if rows == 0:
        return None
    resize_rows(parts, lines, rows)
    return tuple(parts), lines


def _main_thread() -> bool:
    """Say whether this is the main thread (a reader in another runs beside others already)."""
    import threading  # noqa: PLC0415

    return threading.current_thread() is threading.main_thread()
