"""Numeric text tables: the vectorised parser under the TUM, KITTI and EuRoC readers.

A table is lines of numbers separated by spaces, tabs or commas, with ``#`` comments
(whole lines or line ends) and blank lines ignored. Two roads read it, to the same
float64 values (every number correctly rounded, as Python's ``float``):

1. The compiled fast path, ``robot_msgs.io._fasttable`` (C, built at install when a
   compiler is there): one pass over the file's bytes, no Python object per number.
   It takes only plain input (ASCII decimal numbers, single commas, comments, CRLF, a
   header line) and declines anything else: NaN or inf fields, a bad row, an empty
   comma field, non-ASCII bytes outside comments.
2. The general path: the text normalised with a few whole-string operations and handed
   to NumPy's ``loadtxt`` in one call (a file larger than ``CHUNK_BYTES``, a call a
   piece). It reads what the fast path declines, and when it fails too, a per-line loop
   over the text (the whole file's, or the piece's) finds the first bad line so the
   error can name it (file, line, column, text).

So the rules live in one place (the general path), and a file the fast path declines
is read the same, only slower; a test checks the two roads agree on generated tables.

Writing (:func:`format_rows`, under the TUM, KITTI and EuRoC writers) gives each float
its shortest exact form, as Python's ``repr`` does. msgspec's JSON encoder writes the
same digits about eight times as fast (1.6e6 floats: 0.12 s against 1.0 s), so the
magnitudes both write without an exponent go through it, a call per 4096 rows, the others
(below 1e-4, 1e16 and above, NaN, inf) through ``repr``: 2e5 TUM rows in 0.29 s instead
of 1.5 s on one loaded machine, the bytes unchanged (a Hypothesis test compares them).
"""

from __future__ import annotations

import codecs
import itertools
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import numpy as np

from robot_msgs.errors import FormatError, shown_token
from robot_msgs.io.bounded import named_open_error, read_input
from robot_msgs.io.chunks import (
    CompiledTable,
    LineTooLongError,
    Piece,
    allocate_parts,
    file_chunks,
    parse_chunks,
    resize_rows,
)
from robot_msgs.io.examples import resolve_path

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    import numpy.typing as npt

    from robot_msgs.typing import Float64Array, Int64Array, IntpArray

__all__ = [
    "CHUNK_BYTES",
    "Table",
    "datetime_pattern",
    "datetime_stamps",
    "format_rows",
    "is_header_word",
    "lone_cr",
    "non_ascii_note",
    "parse_table",
    "read_bytes",
    "read_table",
    "read_text",
    "shown_token",
    "text_problem",
]


_fasttable: CompiledTable | None
try:
    # A C module has no Python source for mypy; CompiledTable is its type. Imported by its
    # full name, not from the package: ``robot_msgs.io`` imports this module.
    import robot_msgs.io._fasttable as _compiled  # type: ignore[import-not-found]

    _fasttable = _compiled
except ImportError:  # built without a C compiler: the general path reads every table
    _fasttable = None

#: The magnitudes that Python's ``repr`` writes without an exponent (0.0001 .. 9999999999999998.0,
#: and zero), as msgspec writes them too: :func:`format_rows` hands those to msgspec.
_PLAIN_MIN, _PLAIN_MAX = 1e-4, 1e16
#: The rows :func:`format_rows` writes at a time (1024 to 8192 measured alike).
_FORMAT_ROWS = 4096

#: Files larger than this are read in pieces of this size (io/chunks.py): 8 MiB of text
#: at a time instead of the whole file next to its arrays.
CHUNK_BYTES = 1 << 23
_COMMENT = re.compile(r"#[^\n]*")
# Comments cut by ``str.find`` before the regex takes over: a header or two is the common
# case, and scanning the whole text with the regex costs ~10 ms per 10^5 lines.
_FEW_COMMENTS = 16
# A comma with nothing (or only blanks) before the next comma or the line end, or at
# the start of a line: an empty field, which whitespace splitting would silently drop.
_EMPTY_FIELD = re.compile(r",[ \t]*(?=,|\r?$)|^[ \t]*,", re.MULTILINE)
# A number as a field of a text file (also the sniffer's). ASCII digits only: ``\d`` would
# take fullwidth and other Unicode digits, which Python's float() reads but NumPy's
# loadtxt and the fast path do not. The digits split one way only, and case is ignored
# in the words alone: ``[0-9]+\.?[0-9]*`` under IGNORECASE matched the same numbers but
# tried every split of a digit run that then failed, quadratic (a head line of 20,000
# digits and an ``x`` took 7.9 s to sniff, a file of one 27 s to refuse). ASCII case
# only: Unicode case folding matched "inf" spelt with a Turkish dotless i (U+0131) or
# dotted capital I (U+0130), which float() then refused (a ValueError, exit 70). The ASCII
# flag is inline, in the group, so that it holds where the pattern is embedded in
# another (the sniffer's block of rows, which is compiled without flags).
NUMBER_TOKEN = re.compile(
    r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?ai:nan|inf|infinity))"
)
# The first field of a header line, as the fast path's ``is_header_word``: a word that
# starts with a letter or ``_`` and is not nan/inf ("timestamp", "t", "_t").
_HEADER_WORD = re.compile(r"[A-Za-z_]")
_SPECIAL_FLOAT = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE | re.ASCII)
# UTF-16 and UTF-32 byte-order marks, longest first (the UTF-32 LE mark starts as UTF-16's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32 (little-endian)"),
    (codecs.BOM_UTF32_BE, "UTF-32 (big-endian)"),
    (codecs.BOM_UTF16_LE, "UTF-16 (little-endian)"),
    (codecs.BOM_UTF16_BE, "UTF-16 (big-endian)"),
)
_PROBE_BYTES = 4096
_NUL_BYTES = 1 << 16
_FIRST_LINE = re.compile(r"^[ \t,]*[^\s,][^\n]*", re.MULTILINE)


def read_bytes(
    path: str | os.PathLike[str], *, source: str | None = None, limit: int | None = None
) -> bytes:
    """Read the bytes of the file ``path`` (the first ``limit``); a folder or no file said as such.

    The bytes come through :func:`robot_msgs.io.bounded.read_input`: a pipe is read
    once (and bounded), a device is refused. ``example:NAME`` is the shipped file,
    named so in messages.

    Raises
    ------
    IsADirectoryError
        ``path`` is a folder (the message says so, and that a ROS 2 bag is one).
    FileNotFoundError
        No such file.
    FormatError
        A device or a socket; a pipe longer than the bound.

    Examples
    --------
    >>> import tempfile
    >>> read_bytes(tempfile.mkdtemp(), source="runs/")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    IsADirectoryError: runs/: is a directory, not a trajectory file (a ROS 2 bag folder ...)
    """
    if source is None:
        source = str(path)
    try:
        return read_input(resolve_path(path), source=source, head=limit)
    except (FileNotFoundError, IsADirectoryError) as err:
        what = "a trajectory file (a ROS 2 bag folder holds metadata.yaml)"
        raise named_open_error(err, source, what=what) from err


def text_problem(data: bytes, *, source: str) -> FormatError | None:
    r"""Why ``data`` cannot be read as lines of UTF-8 text, or None: said in the user's terms.

    Found with byte searches (C speed): a UTF-16 or UTF-32 byte-order mark; NUL bytes in
    the first 64 KiB (UTF-16 without a mark when every other byte is NUL, else binary
    data; a NUL further on is named by its line, as any bad field); lines ended by CR
    alone (classic Mac OS), which would otherwise read as one long line. Searching the
    whole of a 100 MB file for NUL would cost 12 ms, the head is enough for UTF-16.

    Examples
    --------
    >>> print(text_problem("1 2\n".encode("utf-16"), source="a.txt"))  # doctest: +ELLIPSIS
    a.txt: the file is UTF-16 (little-endian) text (byte-order mark FF FE); save it as UTF-8 ...
    >>> print(text_problem(b"1 2\r3 4\r", source="a.txt"))  # doctest: +ELLIPSIS
    a.txt: lines end in CR only (classic Mac OS line endings, 2 lines); convert them to LF ...
    >>> text_problem(b"1 2\r\n3 4\r\n", source="a.txt") is None
    True
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            family = name.split(" ", 1)[0]
            msg = (
                f"{source}: the file is {name} text (byte-order mark {bom.hex(' ').upper()}); "
                f"save it as UTF-8 (e.g. iconv -f {family} -t UTF-8)"
            )
            return FormatError(msg)
    nul = data.find(b"\x00", 0, _NUL_BYTES)
    if nul >= 0:
        probe = data[:_PROBE_BYTES]
        even, odd = probe[0::2].count(0), probe[1::2].count(0)
        half = len(probe) // 2
        if half and max(even, odd) >= 0.9 * half and min(even, odd) <= 0.1 * half:
            order = "little-endian" if odd > even else "big-endian"
            msg = (
                f"{source}: the file looks like UTF-16 ({order}) text without a byte-order "
                "mark (every other byte is NUL); save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)"
            )
        else:
            msg = (
                f"{source}: not a text file (a NUL byte at byte {nul}); for a bag choose "
                "the format (`format=` bag, bag2 or mcap)"
            )
        return FormatError(msg)
    if b"\n" not in data and b"\r" in data.rstrip(b"\r"):
        lines = len([part for part in data.split(b"\r") if part.strip()])
        msg = (
            f"{source}: lines end in CR only (classic Mac OS line endings, {lines} lines); "
            "convert them to LF (e.g. tr '\\r' '\\n')"
        )
        return FormatError(msg)
    return None


def read_text(path: str | os.PathLike[str], *, source: str | None = None) -> str:
    r"""Read the file's text, UTF-8 with an optional byte-order mark, or raise :class:`FormatError`.

    Parameters
    ----------
    path : path-like
        The file.
    source : str, optional
        The file as messages name it (default ``str(path)``).

    Raises
    ------
    FormatError
        The file is not UTF-8 text; the message names the file and the byte.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = file.write_bytes(b"\xef\xbb\xbf1 2\n")
    >>> read_text(file)
    '1 2\n'
    """
    if source is None:
        source = str(path)
    data = read_bytes(path, source=source)
    problem = text_problem(data, source=source)
    if problem is not None:
        raise problem
    return _decode(data, source=source)


def _decode(data: bytes, *, source: str) -> str:
    """Decode ``data`` as UTF-8 text (byte-order mark dropped), or raise :class:`FormatError`."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        start = err.start + (len(data) - len(err.object))  # utf-8-sig counts from the mark
        msg = (
            f"{source}: not a text file (byte {start} is not UTF-8); "
            "for a bag choose the format (`format=` bag, bag2 or mcap)"
        )
        raise FormatError(msg) from err


@dataclass(frozen=True)
class Table:
    """The numbers of a text table and where each row came from.

    Attributes
    ----------
    parts : tuple of ndarray, float64
        The columns asked for, in groups as the reader split them: one ``(N, C)`` array
        by default; with ``split=(1, 3, 4)`` (TUM) a ``(N,)`` array of stamps, ``(N, 3)``
        positions and ``(N, 4)`` quaternions. Each is C-contiguous and the table's own.
    source : str
        The file, as messages name it.
    """

    parts: tuple[Float64Array, ...]
    source: str
    # The 1-based file line of each row (N,), int64, when the reader knew it; else the
    # text after removing comments, whose lines are counted on demand.
    _row_lines: Int64Array | None = field(default=None, repr=False)
    _text: str = field(default="", repr=False)

    @cached_property
    def values(self) -> Float64Array:
        """All columns asked for, ``(N, C)``: the one part, or the parts side by side."""
        if len(self.parts) == 1 and self.parts[0].ndim == 2:
            return self.parts[0]
        stacked: Float64Array = np.column_stack(self.parts)
        return stacked

    @cached_property
    def _lines(self) -> Int64Array:
        """The 1-based file line of each row: given, or a pass over the lines on demand."""
        if self._row_lines is not None:
            return self._row_lines
        lines = self._text.split("\n")
        numbers = [i + 1 for i, line in enumerate(lines) if line.strip(" \t\r,")]
        return np.asarray(numbers, dtype=np.int64)

    def line_numbers(self, rows: IntpArray) -> list[int]:
        """Return the 1-based file line numbers of data rows ``rows``."""
        numbers: list[int] = self._lines[np.asarray(rows, dtype=np.intp)].tolist()
        return numbers

    def where(self, rows: IntpArray) -> list[str]:
        """Labels ``"line 12"`` for data rows ``rows``, for messages."""
        return [f"line {n}" for n in self.line_numbers(rows)]


def parse_table(
    text: str,
    *,
    source: str,
    columns: Sequence[str],
    extra_columns: bool = False,
    header: bool = False,
    split: Sequence[int] | None = None,
) -> Table:
    r"""Parse numeric rows of ``len(columns)`` fields (or more, when ``extra_columns``).

    Parameters
    ----------
    text : str
        The whole file.
    source : str
        The file's name, used in error messages.
    columns : sequence of str
        Names of the columns read, used in error messages (``"qw"``).
    extra_columns : bool
        Accept and ignore columns after the named ones (EuRoC has velocities and biases).
    header : bool
        Accept a first data line that is not numeric as a header (EuRoC ``timestamp,...``).
    split : sequence of int, optional
        Widths of the column groups returned as ``Table.parts`` (summing to
        ``len(columns)``; a width of 1 gives a ``(N,)`` array). Default: one group.

    Returns
    -------
    Table
        ``values`` has shape ``(N, len(columns))``, float64; ``parts`` the groups.

    Raises
    ------
    FormatError
        A row has the wrong number of fields, an empty field or a field that is not a
        number; the message names the file, line, column and the line's text. Also when
        the file holds no rows.

    Examples
    --------
    >>> parse_table("# t x\n1, 2\n3\t4\n", source="a.txt", columns=("t", "x")).values
    array([[1., 2.],
           [3., 4.]])
    >>> parse_table("1 2 3\n", source="a.txt", columns=("t", "x", "y"), split=(1, 2)).parts
    (array([1.]), array([[2., 3.]]))
    """
    try:
        data: bytes | None = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (in a comment, say): the general path
        data = None
    return _parse(
        data, lambda: text, source=source, columns=columns, extra_columns=extra_columns,
        header=header, split=split,
    )  # fmt: skip


def _parse(
    data: bytes | None,
    text: Callable[[], str],
    *,
    source: str,
    columns: Sequence[str],
    extra_columns: bool,
    header: bool,
    split: Sequence[int] | None,
) -> Table:
    """Use the fast path over ``data`` when it takes it, else the general path over ``text()``."""
    widths = _widths(columns, split)
    if data is not None:
        fast = _parse_fast(
            data, source=source, widths=widths, extra_columns=extra_columns, header=header
        )
        if fast is not None:
            return fast
    return _parse_general(
        text(), source=source, columns=columns, widths=widths, extra_columns=extra_columns,
        header=header,
    )  # fmt: skip


def _widths(columns: Sequence[str], split: Sequence[int] | None) -> tuple[int, ...]:
    """Return the column groups' widths; one group of all columns when ``split`` is None."""
    if split is None:
        return (len(columns),)
    widths = tuple(int(w) for w in split)
    if sum(widths) != len(columns) or min(widths) < 1:
        msg = f"split {widths} must be positive widths summing to the {len(columns)} columns"
        raise ValueError(msg)
    return widths


def _parse_fast(
    data: bytes, *, source: str, widths: tuple[int, ...], extra_columns: bool, header: bool
) -> Table | None:
    """Run the compiled fast path over the file's bytes; None when it is absent or declines.

    It writes each group of columns straight into its own array, so a reader gets its
    stamps, positions and quaternions without another copy.
    """
    if _fasttable is None:
        return None
    capacity = _fasttable.count_lines(data)
    parts = allocate_parts(capacity, widths)
    lines = np.empty(capacity, dtype=np.int64)
    rows = _fasttable.parse(data, extra_columns, header, parts, lines)
    if rows < 0:
        return None
    return Table(parts=tuple(part[:rows] for part in parts), source=source, _row_lines=lines[:rows])


def _parse_general(
    text: str,
    *,
    source: str,
    columns: Sequence[str],
    widths: tuple[int, ...],
    extra_columns: bool,
    header: bool,
) -> Table:
    """Run the general path: NumPy's ``loadtxt`` over the normalised text (see the module)."""
    ncols = len(columns)
    text = _strip_comments(text)
    if header:
        text = _blank_header(text)
    values, lines = _general_rows(text, source=source, columns=columns, extra_columns=extra_columns)
    if values is None:
        located = _locate(lines, source=source, columns=columns, extra_columns=extra_columns)
        raise located or _unread(source=source, columns=columns, extra_columns=extra_columns)
    if values.shape[0] == 0:
        msg = f"{source}: no data rows (expected {ncols} numbers a row: {' '.join(columns)})"
        raise FormatError(msg)
    if len(widths) == 1:
        return Table(parts=(values,), source=source, _text=text)
    parts = allocate_parts(values.shape[0], widths)
    _put_rows(parts, values, 0)
    return Table(parts=parts, source=source, _text=text)


def _put_rows(parts: Sequence[Float64Array], values: Float64Array, row: int) -> None:
    """Copy ``values``' columns into ``parts`` (the column groups) from row ``row`` on."""
    start, stop = 0, 0
    for part in parts:
        stop = start + (part.shape[1] if part.ndim == 2 else 1)
        part[row : row + len(values)] = values[:, start:stop].reshape((-1, *part.shape[1:]))
        start = stop


def _general_rows(
    text: str, *, source: str, columns: Sequence[str], extra_columns: bool, first_line: int = 1
) -> tuple[Float64Array | None, list[str]]:
    """Return the rows of ``text`` (comments gone, header blanked) and its normalised lines.

    The rows are None when NumPy refuses them (a row of the wrong length, a field that
    is not a number): :func:`_locate` names the line.

    Raises
    ------
    FormatError
        An empty comma field, named by its line (``text``'s first is ``first_line``).
    """
    ncols = len(columns)
    if "," in text:
        bad = _EMPTY_FIELD.search(text) if _has_empty_field(text) else None
        if bad is not None:
            line_no = text.count("\n", 0, bad.start()) + first_line
            start = text.rfind("\n", 0, bad.start()) + 1
            before = text[start : bad.start()]  # blank: the line starts with a comma
            # The fields before it, separated by blanks or commas (not commas alone).
            column = len(before.replace(",", " ").split()) + 1
            msg = f"{source}, line {line_no}: empty field between commas (column {column})"
            raise FormatError(msg)
        normal = text.replace(",", " ")
    else:
        normal = text
    if "\t" in normal:
        normal = normal.replace("\t", " ")
    lines = normal.split("\n")
    values = _load(lines, ncols, extra_columns=extra_columns)
    if values is None or (values.shape[1] != ncols and values.size):
        return None, lines
    return values, lines


def _strip_comments(text: str) -> str:
    r"""``text`` without ``#`` comments (to the line end, newline kept): ``_COMMENT.sub("", text)``.

    The first few comments are cut with ``str.find`` (C speed, no pass over the rest of
    the text); only a text with more of them goes on to the regex.

    Examples
    --------
    >>> _strip_comments("# t x\n1 2 # note\n3 4")
    '\n1 2 \n3 4'
    """
    start = text.find("#")
    if start < 0:
        return text
    parts: list[str] = []
    pos = 0
    for _ in range(_FEW_COMMENTS):
        if start > pos:
            parts.append(text[pos:start])
        end = text.find("\n", start)
        if end < 0:
            return _joined(parts)
        pos = end
        start = text.find("#", pos)
        if start < 0:
            parts.append(text[pos:])
            return _joined(parts)
    parts.append(_COMMENT.sub("", text[pos:]))
    return _joined(parts)


def _joined(parts: list[str]) -> str:
    """``"".join(parts)``, without a second copy of a lone part (a header then the data)."""
    return parts[0] if len(parts) == 1 else "".join(parts)


#: strptime's directives a trajectopy ``#datetime_format`` may hold, as patterns: each a
#: group; strptime takes 1-2 digits for all but %Y (4) and %f (1-6).
_DATETIME_PARTS = {"Y": r"(\d{4})", "m": r"(\d{1,2})", "d": r"(\d{1,2})", "H": r"(\d{1,2})",
                   "M": r"(\d{1,2})", "S": r"(\d{1,2})", "f": r"(\d{1,6})"}  # fmt: skip
_DATETIME_DIRECTIVE = re.compile(r"%(.?)|(\s+)|([^%\s]+)", re.DOTALL)


def datetime_pattern(fmt: str) -> tuple[re.Pattern[bytes], tuple[str, ...]] | str:
    """Return the row pattern of strptime's format ``fmt`` and its directives, or why not.

    The pattern matches the stamp at a row's start, from the newline before it (a literal
    first, found fast: ``^`` is tried at every byte) and blanks, as strptime reads
    it: a blank in ``fmt`` is one or more, the stamp ends at a comma, a tab or the line's
    end. Only ``%Y %m %d %H %M %S %f %%`` are taken, each of ``YmdHMS`` once.

    Examples
    --------
    >>> datetime_pattern("%Y-%m-%d %H:%M:%S.%f")[1]
    ('Y', 'm', 'd', 'H', 'M', 'S', 'f')
    >>> datetime_pattern("%y/%m")
    'strptime directive %y: the readers take %Y %m %d %H %M %S %f'
    """
    parts, order = [rb"\n[ \t]*"], []
    for directive, blank, literal in _DATETIME_DIRECTIVE.findall(fmt):
        if blank:
            parts.append(rb"[ \t]+")
        elif literal:
            parts.append(re.escape(literal.encode("utf-8")))
        elif directive == "%":
            parts.append(b"%")
        elif directive in _DATETIME_PARTS and directive not in order:
            parts.append(_DATETIME_PARTS[directive].encode())
            order.append(directive)
        else:
            return f"strptime directive %{directive}: the readers take %Y %m %d %H %M %S %f"
    if not {"Y", "m", "d"} <= set(order):
        return "a date needs %Y, %m and %d"
    parts.append(rb"(?=[ \t]*(?:[,\t]|\r?\n|\r?\Z))")
    return re.compile(b"".join(parts)), tuple(order)


def datetime_stamps(data: bytes, fmt: str, *, source: str) -> bytes:
    r"""Return ``data`` with each row's date and time (strptime's ``fmt``, UTC) as seconds.

    trajectopy's ``#time_format datetime``: the stamp text at each row's start becomes
    its Unix seconds, written as decimals of whole microseconds, which parse to the float
    ``datetime.timestamp()`` gives (its integer microseconds divided by ``10**6``). All rows
    at once (one split, NumPy's datetime64), no Python step per row.

    Parameters
    ----------
    data : bytes
        The file's rows, commas between fields; lines starting with ``#`` are left.
    fmt : str
        strptime's format, its directives those :func:`datetime_pattern` takes.
    source : str
        Named in errors.

    Raises
    ------
    FormatError
        A row that does not start with such a stamp, or one that is no date or time
        (month 13, 31 February, hour 24): its line and column 1 named.

    Examples
    --------
    >>> datetime_stamps(b"2011-05-10 12:38:22.16,1\n", "%Y-%m-%d %H:%M:%S.%f", source="a")
    b'1305031102.160000,1\n'
    """
    compiled = datetime_pattern(fmt)
    if isinstance(compiled, str):
        msg = f"{source}: trajectopy's #datetime_format {fmt}: {compiled}"
        raise FormatError(msg)
    pattern, order = compiled
    data = b"\n" + data  # each row after a newline
    stamp = pattern.pattern[len(rb"\n[ \t]*") :]
    other = re.search(  # a row (not a comment, not blank) that does not start with one
        rb"\n(?!(?:\xef\xbb\xbf)?[ \t,]*(?:#|\r?\n|\r?\Z))(?![ \t]*" + stamp + rb")",
        data,
    )
    if other is not None:
        _datetime_error(data, other, fmt, source=source)
    pieces = pattern.split(data)
    width = len(order) + 1
    if len(pieces) == 1:
        return data[1:]
    between = pieces[::width]
    del pieces[::width]  # the groups, row by row: one array, converted at once
    groups = np.array(pieces, dtype="S6").reshape(-1, width - 1)
    numbers = groups.astype(np.int64)
    values = {"H": 0, "M": 0, "S": 0, "f": 0} | {k: numbers[:, i] for i, k in enumerate(order)}
    if "f" in order:  # a fraction of a second: its digits, 6 of them the microseconds
        digits = np.char.str_len(groups[:, order.index("f")])
        values["f"] = values["f"] * 10 ** (6 - digits)
    year, month, day = (np.asarray(values[k], dtype=np.int64) for k in "Ymd")
    first = ((year - 1970) * 12 + month - 1).astype("datetime64[M]")
    days = (first.astype("datetime64[D]") - np.datetime64("1970-01-01", "D")).astype(np.int64)
    length = ((first + 1).astype("datetime64[D]") - first.astype("datetime64[D]")).astype(np.int64)
    hour, minute, second = (np.asarray(values[k], dtype=np.int64) for k in "HMS")
    bad = (year < 1) | (month < 1) | (month > 12) | (day < 1) | (day > length)
    bad |= (hour > 23) | (minute > 59) | (second > 59)
    if bad.any():
        at = int(np.argmax(bad))
        found = next(itertools.islice(pattern.finditer(data), at, None))
        _datetime_error(data, found, fmt, source=source)
    micro = (((days + day - 1) * 24 + hour) * 60 + minute) * 60 + second
    micro = micro * 1_000_000 + values["f"]
    # WHY as decimal text, not micro / 1e6: past 2255 the microseconds exceed 2**53 and
    # float64(micro) / 1e6 rounds twice; the parser rounds the decimal once, as Python's
    # timestamp() divides its integer microseconds (9025257600.000001, not ...000002).
    size, sign = np.abs(micro), np.where(micro < 0, b"-", b"").tolist()
    whole, part = (size // 1_000_000).tolist(), (size % 1_000_000).tolist()
    texts = [b"\n%s%d.%06d" % row for row in zip(sign, whole, part, strict=True)]
    out: list[bytes] = [b""] * (2 * len(texts) + 1)
    out[0::2], out[1::2] = between, texts
    return b"".join(out)[1:]


def _datetime_error(data: bytes, found: re.Match[bytes], fmt: str, *, source: str) -> None:
    """Raise the error of the row after ``found``'s newline, its stamp not one of ``fmt``."""
    start = found.start() + 1
    at = data.count(b"\n", 0, start)
    end = data.find(b"\n", start)
    row = data[start : end if end != -1 else len(data)].decode("utf-8", "replace")
    token = row.strip().split(",")[0].strip()
    msg = (
        f"{source}, line {at}, column 1: {shown_token(token)} is no date and time as "
        f"trajectopy's #datetime_format {fmt} writes them (UTC)"
    )
    raise FormatError(msg)


def read_table(
    path: str | os.PathLike[str],
    *,
    columns: Sequence[str],
    extra_columns: bool = False,
    header: bool = False,
    split: Sequence[int] | None = None,
    delimiter: str = ",",
    datetime_format: str | None = None,
) -> Table:
    r"""Read the file ``path`` and parse it with :func:`parse_table`, naming it in errors.

    The one entry point of the TUM, KITTI (poses and times) and EuRoC readers.
    ``example:NAME`` is the shipped file, named so in errors and warnings.
    ``delimiter``, one character (trajectopy's ``#delimiter ';'``), separates fields as
    a comma does: each is a comma before the rows are parsed, the file read whole.
    ``datetime_format`` (trajectopy's ``#time_format datetime``): each row's first field
    is a date and time so written, read as Unix seconds (:func:`datetime_stamps`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "times.txt"
    >>> _ = file.write_text("0.5\n1.5\n")
    >>> read_table(file, columns=("t",)).values[:, 0]
    array([0.5, 1.5])
    """
    source = str(path)  # as given: ``example:NAME``, not the installed file
    path = resolve_path(path)
    other = delimiter not in (",", " ", "\t")
    whole = other or datetime_format is not None  # rewritten before the one parser
    if _fasttable is not None and not whole:
        table = _read_in_chunks(
            _fasttable, path, source=source, widths=_widths(columns, split),
            extra_columns=extra_columns, header=header,
        )  # fmt: skip
        if table is not None:
            return table
    table = None if whole else _read_general_in_chunks(
        path, source=source, columns=columns, widths=_widths(columns, split),
        extra_columns=extra_columns, header=header,
    )  # fmt: skip
    if table is not None:
        return table
    data = read_bytes(path, source=source)
    problem = text_problem(data, source=source)
    if problem is not None:
        raise problem
    if other:  # its bytes in UTF-8 are no part of another character's
        # WHY: a comma in a row would be a second separator here ("...;0,1" read as two
        # numbers), where trajectopy reads one text field and fails: refused, its line said.
        comma = re.search(rb"^[ \t]*[^# \t\r\n][^\r\n]*,", data, re.MULTILINE)
        if comma is not None:
            at = data.count(b"\n", 0, comma.start()) + 1
            msg = (
                f"{source}, line {at}: a comma in a row of a file whose #delimiter is "
                f"{delimiter!r}: write its rows with the one delimiter (a decimal point, not "
                "a comma)"
            )
            raise FormatError(msg)
        data = data.replace(delimiter.encode("utf-8"), b",")
    if datetime_format is not None:  # its stamps as seconds, before the blanks are checked
        data = datetime_stamps(data, datetime_format, source=source)
    if other:
        # WHY: likewise a blank between two fields of a delimited row ("1.0 0;0;...") was a
        # second separator; trajectopy reads "1.0 0" as one field and fails. A row with no
        # delimiter, split at blanks, trajectopy reads so too: it is left as it is.
        blank = re.search(
            rb"^(?=[^\r\n]*,)[ \t]*[^# \t\r\n][^\r\n]*?[^, \t\r\n][ \t]+[^, \t\r\n]",
            data,
            re.MULTILINE,
        )
        if blank is not None:
            at = data.count(b"\n", 0, blank.start()) + 1
            msg = (
                f"{source}, line {at}: a blank between two fields of a row of a file whose "
                f"#delimiter is {delimiter!r}: write its rows with the one delimiter"
            )
            raise FormatError(msg)
    # A file that is not UTF-8 is refused first; ASCII (the usual case) needs no decoding
    # unless the general path runs.
    text = None if data.isascii() else _decode(data, source=source)
    return _parse(
        data.removeprefix(codecs.BOM_UTF8),
        lambda: _decode(data, source=source) if text is None else text,
        source=source, columns=columns, extra_columns=extra_columns, header=header,
        split=split,
    )  # fmt: skip


def _read_in_chunks(
    compiled: CompiledTable,
    path: str | os.PathLike[str],
    *,
    source: str,
    widths: tuple[int, ...],
    extra_columns: bool,
    header: bool,
) -> Table | None:
    """Read a regular file larger than ``CHUNK_BYTES`` piece by piece (``io/chunks.py``).

    None for a smaller file, one the compiled road declines or one with a problem: the
    whole-file road then reads it, or names what is wrong, by the one set of rules.
    ``compiled`` is the compiled module (the caller has it: this road needs it).
    """
    try:
        if not stat.S_ISREG(Path(path).stat().st_mode):  # a pipe is read once, by read_bytes
            return None
        with Path(path).open("rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size <= CHUNK_BYTES:
                return None
            pieces = file_chunks(handle, CHUNK_BYTES)
            first = next(pieces)
            if text_problem(bytes(first.view()), source=source) is not None:
                return None
            rows = compiled.count_lines(first.view())
            rows_hint = int(rows * (info.st_size / first.length) * 1.01)
            parsed = parse_chunks(
                itertools.chain([first], pieces), compiled, widths=widths,
                extra_columns=extra_columns, header=header, rows_hint=rows_hint,
            )  # fmt: skip
    except LineTooLongError as err:  # read whole, it would be held whole: refused here
        raise _too_long(path, err, source=source) from err
    except (OSError, ValueError):  # no file, no permission, a NUL: the whole-file road says
        return None
    if parsed is None:
        return None
    parts, lines = parsed
    return Table(parts=parts, source=source, _row_lines=lines)


def _read_general_in_chunks(
    path: str | os.PathLike[str],
    *,
    source: str,
    columns: Sequence[str],
    widths: tuple[int, ...],
    extra_columns: bool,
    header: bool,
) -> Table | None:
    """Read a regular file larger than ``CHUNK_BYTES`` by the general path, piece by piece.

    WHY: read whole, the general path held the file's bytes, its text, a ``str`` a line
    and the numbers twice at once: 2e6 poses peaked at 7.8x (TUM), 12.0x (KITTI) and
    13.7x (EuRoC) their float64 over the interpreter (``bench_io.py --rss 2e6``). It is
    the road of every file the compiled one declines (one ``nan`` field) and of every
    file where the C extension was not built. Each piece goes through the same rules
    (:func:`_general_rows`), so the numbers are those of the whole-file road. A bad row
    or an empty comma field is named here, by its file line, when the rest of the file
    holds nothing the whole-file road names first (:func:`_named_first_later`): read again
    whole to be named, a 2e6-pose file with a bad last row took 18.3 s of CPU and 1.16 GB,
    now 5.8 s and 238 MB. Anything else refused (a piece that is not UTF-8, a lone CR),
    None: the whole-file road then names the problem as it always has. None for a smaller
    file, as for :func:`_read_in_chunks`.

    Raises
    ------
    FormatError
        A bad row or an empty comma field, with the whole-file road's message; a line
        longer than ``MAX_LINE_BYTES``, as :func:`_read_in_chunks` says it (read whole,
        a file of one 10 GB line was held whole).
    """
    error: FormatError | None = None
    try:
        if not stat.S_ISREG(Path(path).stat().st_mode):
            return None
        with Path(path).open("rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size <= CHUNK_BYTES:
                return None
            parts: tuple[Float64Array, ...] = ()
            lines: Int64Array = np.empty(0, dtype=np.int64)
            rows, line_base, offset = 0, 0, 0
            pieces = file_chunks(handle, CHUNK_BYTES)
            for k, piece in enumerate(pieces):
                data = bytes(piece.view())
                if k == 0 and text_problem(data, source=source) is not None:
                    return None
                if _nul_in_head(data, offset):
                    return None
                offset += len(data)
                text = _strip_comments(data.decode("utf-8" if k else "utf-8-sig"))
                if text.count("\r") != text.count("\r\n"):  # a lone CR: loadtxt's line break
                    return None  # in a piece of blank lines too, which it is never shown
                if header:  # the file's first line with a field, in whichever piece
                    header = _FIRST_LINE.search(text) is None
                    text = _blank_header(text)
                try:
                    values, normal = _general_rows(
                        text, source=source, columns=columns, extra_columns=extra_columns,
                        first_line=line_base + 1,
                    )  # fmt: skip
                except FormatError as err:  # an empty comma field
                    error = err
                    break
                if values is None:  # a bad row: named by its line, or by the whole file
                    error = _locate(
                        normal, source=source, columns=columns, extra_columns=extra_columns,
                        first_line=line_base + 1,
                    )  # fmt: skip
                    if error is None:
                        return None
                    break
                here = np.flatnonzero([bool(line.strip(" \t\r,")) for line in normal])
                if len(here) != len(values):  # rows that are not its lines with fields
                    return None
                if k == 0:  # room for the rows of the whole file at the first piece's rate
                    hint = int(len(values) * info.st_size / len(data) * 1.01) + 1
                    parts = allocate_parts(hint, widths)
                    lines = np.empty(hint, dtype=np.int64)
                if rows + len(values) > len(lines):
                    resize_rows(parts, lines, max(rows + len(values), len(lines) * 3 // 2))
                _put_rows(parts, values, rows)
                lines[rows : rows + len(values)] = here + line_base + 1
                rows += len(values)
                line_base += len(normal) - 1
            if error is not None and _named_first_later(pieces, offset):
                return None
    except LineTooLongError as err:  # as the compiled road says it (after a bad row: None)
        raise _too_long(path, err, source=source) from err
    except (OSError, ValueError):  # no file, not UTF-8, a line too long: the whole-file road says
        return None
    if error is not None:
        raise error
    if rows == 0:
        return None
    resize_rows(parts, lines, rows)
    return Table(parts=parts, source=source, _row_lines=lines)


def _too_long(path: str | os.PathLike[str], err: LineTooLongError, *, source: str) -> FormatError:
    """Return the error for a line longer than ``MAX_LINE_BYTES`` in a file read in pieces."""
    line = _lines_before(path, err.offset) + 1
    msg = (
        f"{source}, line {line}: longer than {err.limit_text} (a line of poses is about "
        "100 bytes): not a text table"
    )
    return FormatError(msg)


def _named_first_later(pieces: Iterator[Piece], offset: int) -> bool:
    """Say whether the rest of a file holds what the whole-file road names before a bad row.

    That is a byte that is not UTF-8 (the file is decoded whole first), an empty comma
    field (sought in the whole text before any row is read) or a NUL in the first
    ``_NUL_BYTES`` (a binary file). ``pieces`` are the file's from byte ``offset`` on.
    A bad row after the first is not: the first is named. A line longer than
    ``MAX_LINE_BYTES`` is said as True: the whole-file road names the bad row.
    """
    try:
        for piece in pieces:
            data = bytes(piece.view())
            if _nul_in_head(data, offset):
                return True
            offset += len(data)
            text = _strip_comments(data.decode("utf-8"))
            if "," in text and _has_empty_field(text) and _EMPTY_FIELD.search(text):
                return True
    except (LineTooLongError, UnicodeDecodeError):
        return True
    return False


def _nul_in_head(data: bytes, start: int) -> bool:
    """Say whether ``data`` (from the file's byte ``start``) has a NUL in its first ``_NUL_BYTES``.

    :func:`text_problem` names such a NUL for the whole file: not a text file.
    """
    return start < _NUL_BYTES and data.find(b"\x00", 0, _NUL_BYTES - start) >= 0


def _lines_before(path: str | os.PathLike[str], offset: int) -> int:
    """Count the line ends in the first ``offset`` bytes of the file ``path``, piece by piece."""
    count = 0
    with Path(path).open("rb") as handle:
        while offset > 0 and (piece := handle.read(min(offset, CHUNK_BYTES))):
            count += piece.count(b"\n")
            offset -= len(piece)
    return count


def _has_empty_field(text: str) -> bool:
    """Quick whole-string test for an empty comma field (the regex locates it after)."""
    probe = text.replace(" ", "").replace("\t", "").replace("\r", "")
    return (
        ",," in probe
        or ",\n" in probe
        or "\n," in probe
        or probe.startswith(",")
        or probe.endswith(",")
    )


def _blank_header(text: str) -> str:
    """Blank the first non-empty line when its first field is not a number."""
    first = _FIRST_LINE.search(text)
    if first is None:
        return text
    fields = first.group().replace(",", " ").split()
    if not is_header_word(fields[0]):
        return text
    return text[: first.start()] + text[first.end() :]


def is_header_word(field: str) -> bool:
    """Whether ``field`` starts a header line: a word, not a number (the fast path's rule).

    Examples
    --------
    >>> is_header_word("timestamp"), is_header_word("nan"), is_header_word("1.5")
    (True, False, False)
    """
    return _HEADER_WORD.match(field) is not None and _SPECIAL_FLOAT.fullmatch(field) is None


def _load(lines: list[str], ncols: int, *, extra_columns: bool) -> Float64Array | None:
    """NumPy's C parser over all lines at once; None when it refuses the input."""
    if not any(line.strip() for line in lines):
        # What loadtxt returns for no data, without its warning (and without
        # catch_warnings, which is not thread-safe: readers run side by side).
        return np.empty((0, 1))
    try:
        values = np.loadtxt(
            lines,
            dtype=np.float64,
            comments=None,
            ndmin=2,
            usecols=range(ncols) if extra_columns else None,
        )
    except ValueError:
        return None
    out: Float64Array = values
    return out


def _locate(
    lines: list[str],
    *,
    source: str,
    columns: Sequence[str],
    extra_columns: bool,
    first_line: int = 1,
) -> FormatError | None:
    """Build the error for the first bad line: the slow path, run only after a failure.

    None when no line is at fault (see :func:`_unread`); ``lines``' first is ``first_line``.

    A bad line holding a carriage return before its end (a line break written as CR
    alone, which joins two lines; every path reads lines ended by LF or CR LF) is said as
    such, where it is, rather than by the count of fields the two lines give.
    """
    ncols = len(columns)
    expected = _expected(columns, extra_columns=extra_columns)
    for number, line in enumerate(lines, start=first_line):
        fields = line.split()
        if not fields:
            continue
        wrong = len(fields) < ncols or (len(fields) > ncols and not extra_columns)
        # A lone CR is a line break to NumPy's parser, whitespace to split(): the line is
        # refused even where the pieces add up to the count (`1 2 3 4\r5 6 7 8`).
        got = f"{len(fields)} field{'s' * (len(fields) != 1)}"  # "(1 fields)" was said
        cr = lone_cr(line, number, got + (f", expected {expected}" if wrong else ""))
        if cr:
            return FormatError(f"{source}, {cr}")
        if wrong:
            return FormatError(f"{source}, line {number}: expected {expected}, got {len(fields)}")
        for col, token in enumerate(fields[:ncols], start=1):
            if NUMBER_TOKEN.fullmatch(token) is None:
                msg = (
                    f"{source}, line {number}, column {col} ({columns[col - 1]}): "
                    f"{shown_token(token)} is not a number{non_ascii_note(token)}"
                )
                return FormatError(msg)
    return None


def _expected(columns: Sequence[str], *, extra_columns: bool) -> str:
    """``at least 8 columns (t x ...)``: a row's fields, as errors say them."""
    noun = "column" if len(columns) == 1 else "columns"  # a times file: "1 columns (t)" was said
    return f"{'at least ' if extra_columns else ''}{len(columns)} {noun} ({' '.join(columns)})"


def _unread(*, source: str, columns: Sequence[str], extra_columns: bool) -> FormatError:
    """Return the error for numbers NumPy refuses where :func:`_locate` finds no line at fault."""
    expected = _expected(columns, extra_columns=extra_columns)
    return FormatError(f"{source}: could not read the numbers (expected {expected} a row)")


def lone_cr(line: str, number: int, got: str) -> str:
    r"""Say a carriage return without a line feed inside ``line``; ``""`` when it has none.

    ``number`` is the line's, ``got`` what the joined line shows (``16 fields, ...``).

    Examples
    --------
    >>> print(lone_cr("1 2\r3 4\r", 6, "4 fields"))  # doctest: +ELLIPSIS
    line 6: a carriage return without a line feed (CR, not CR LF) after field 2 joins two ...
    >>> print(lone_cr("1 2 3 4\r  ", 6, "4 fields"))  # doctest: +ELLIPSIS
    line 6: a carriage return ... after field 4, only blanks after it on the line (4 fields); ...
    >>> lone_cr("1 2 3 4\r", 6, "4 fields")
    ''
    """
    body = line.rstrip("\r")
    at = body.find("\r")
    if at < 0:
        return ""
    before = len(body[:at].replace(",", " ").split())
    # Blanks alone after it (`... 1\r  \n`) or before it (` \r1 ...`) join no line: it was
    # said as joining two ('after field 0' for the second).
    where = f"after field {before} joins two lines into one"
    if not body[at:].replace(",", " ").strip():
        where = f"after field {before}, only blanks after it on the line"
    elif before == 0:
        where = "before field 1, only blanks before it on the line"
    return (
        f"line {number}: a carriage return without a line feed (CR, not CR LF) {where} "
        f"({got}); end each line with LF or CR LF"
    )


def non_ascii_note(token: str) -> str:
    """`` (U+FF11 FULLWIDTH DIGIT ONE is not ASCII)`` for a token with such a character.

    Examples
    --------
    >>> non_ascii_note("１.5"), non_ascii_note("x")
    (' (U+FF11 FULLWIDTH DIGIT ONE is not ASCII; write numbers in ASCII digits)', '')
    """
    for char in token:
        if not char.isascii():
            name = unicodedata.name(char, "a non-ASCII character")
            return f" (U+{ord(char):04X} {name} is not ASCII; write numbers in ASCII digits)"
    return ""


def format_rows(
    values: Float64Array, *, separator: str = " ", leading_ints: Int64Array | None = None
) -> str:
    r"""Text lines of ``values`` ``(N, C)``, each float written as its shortest exact repr.

    Every number reads back to the same float64 (Python's ``repr`` round trip).

    Parameters
    ----------
    values : ndarray, shape (N, C), float64
        The rows.
    separator : str
        Between the numbers of a row.
    leading_ints : ndarray, shape (N,), int64, optional
        A first column written as integers, exactly (EuRoC's nanosecond stamps, beyond
        the integers a float64 holds).

    Examples
    --------
    >>> format_rows(np.array([[0.1, 2.0], [1e-20, -3.5]]))
    '0.1 2.0\n1e-20 -3.5\n'
    >>> format_rows(np.array([[0.5]]), separator=",", leading_ints=np.array([10**18 + 1]))
    '1000000000000000001,0.5\n'
    """
    if values.shape[0] > _FORMAT_ROWS:  # in blocks: a text of 10^6 rows at once took 2.5x as long
        return "".join(
            format_rows(
                values[at : at + _FORMAT_ROWS],
                separator=separator,
                leading_ints=None if leading_ints is None else leading_ints[at : at + _FORMAT_ROWS],
            )
            for at in range(0, values.shape[0], _FORMAT_ROWS)
        )
    if values.shape[0] == 0:
        return ""
    rows, cols = values.shape
    if cols == 0:  # empty lines
        return _format_rows_by_repr(values, separator, leading_ints)
    with np.errstate(invalid="ignore"):  # NaN compares false: it is one of repr's cells
        size = np.abs(values)
        plain = ((size >= _PLAIN_MIN) & (size < _PLAIN_MAX)) | (values == 0)
    if 4 * np.count_nonzero(plain) < values.size:  # mostly repr's cells: see the repr road
        return _format_rows_by_repr(values, separator, leading_ints)
    cells: npt.NDArray[np.generic] = np.where(plain, values, 0.0)
    odd_values: list[float] = values[~plain].tolist()  # row by row, as the cells are written
    if leading_ints is not None:  # an object table: msgspec writes Python ints exactly
        cells = np.column_stack([leading_ints.astype(object), cells.astype(object)])
        plain = np.column_stack([np.ones(rows, dtype=bool), plain])
        cols += 1
    encoded = msgspec.json.encode(cells.ravel().tolist())  # b"[a,b,...]"
    if b"e" in encoded:  # a msgspec that writes exponents where repr does not: no fast road
        return _format_rows_by_repr(values, separator, leading_ints)
    line = np.frombuffer(encoded, dtype=np.uint8)[1:].copy()
    line[-1] = ord(",")  # each cell now ends at a comma
    ends = np.flatnonzero(line == ord(","))
    line[ends[cols - 1 :: cols]] = ord("\n")
    text: str = line.tobytes().decode("ascii")
    if odd_values:  # the cells written 0.0 above, each replaced by its repr
        # Offsets from NumPy, then C-level list work (slices, map, join): a Python loop
        # per cell took 1.9x the repr road's time on a block of such cells.
        odd = np.flatnonzero(~plain.ravel())
        starts: list[int] = (np.concatenate([[-1], ends])[odd] + 1).tolist()  # past a comma
        stops: list[int] = ends[odd].tolist()
        pieces = [""] * (2 * len(stops) + 1)
        pieces[0:-1:2] = [text[a:b] for a, b in zip([0, *stops], starts, strict=False)]
        pieces[1::2] = map(repr, odd_values)
        pieces[-1] = text[stops[-1] :]
        text = "".join(pieces)
    return text.replace(",", separator)  # the separator may be any text


def _format_rows_by_repr(
    values: Float64Array, separator: str, leading_ints: Int64Array | None
) -> str:
    """:func:`format_rows`, one ``%r`` at a time.

    For a block whose cells are over 3/4 repr's (below 1e-4, 1e16 and above, NaN, inf),
    where splicing them into msgspec's text costs more than msgspec saves (all below
    1e-4: 1.15x this road's time; 3/4: 0.9x), and for a msgspec that writes other forms.
    """
    pattern = separator.join(["%r"] * values.shape[1])
    rows: list[list[float]] = values.tolist()
    if leading_ints is None:
        return "\n".join(pattern % tuple(row) for row in rows) + "\n"
    pattern = "%d" + separator + pattern
    firsts = leading_ints.tolist()
    return "\n".join(pattern % (t, *row) for t, row in zip(firsts, rows, strict=True)) + "\n"
