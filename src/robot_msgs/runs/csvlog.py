"""Small comma-separated logs with a header row, read into columns with precise errors.

The run logs (``timing.csv``, ``tracking.csv``, ``resources.csv``) share one layout: a
header line naming the columns, then one row per sample; blank lines and lines starting
with ``#`` are skipped; an empty cell in an optional numeric column reads as NaN. Parsing
is vectorised (``numpy.loadtxt`` and one ``astype``); only when something is wrong are
the lines scanned, to name the file, line and column in the error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from robot_msgs.errors import FormatError, did_you_mean
from robot_msgs.io.table import non_ascii_note, shown_token

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    import numpy.typing as npt

    from robot_msgs.typing import AnyArray, BoolArray, Float64Array, Int64Array

__all__ = ["CsvTable", "read_csv_table"]

_COMMENT = re.compile(r"^\s*(#.*)?$")
#: The bytes a log's first line must end within: a header of ~20 columns is 300 bytes,
#: one of 6000 channels 108 KB (refused at 64 KiB, a review); a megabyte is no header.
_HEAD_BYTES = 1 << 20
#: The rows whose times are read at once, for ``time_ns``: their matrices of shape
#: ``(rows, _NS_WIDTH)`` are 0.26 MB each as bytes, 1.3 MB the int64 digits.
_NS_ROWS = 1 << 13
#: The bytes a time's cell read as nanoseconds is shorter than, blanks and leading zeros in.
_NS_WIDTH = 32
#: The powers of ten that scale a cell's digits to nanoseconds.
_POW10 = 10 ** np.arange(10, dtype=np.int64)
#: Row k: True at a row's first k byte places (a cell k bytes long), for ``time_ns``.
_BEFORE = np.arange(_NS_WIDTH)[None, :] < np.arange(_NS_WIDTH + 1)[:, None]
#: Sums a row of places as a product of matrices (axis=1 sums took 3 to 7 times longer).
_ONES = np.ones(_NS_WIDTH, dtype=np.float32)
#: A time's 10 places before its point, the point and 10 after, from 10 before it.
_AROUND = np.arange(21)
#: The last digits of a time's exponent weighed (``1.7e+09``); one not 0 before them
#: (``1e1000``) moves the point past :data:`_NS_SHIFT`, leading zeros (``1e0009``) not.
_EXPONENT_DIGITS = 3
#: The most places an exponent moves a point, either way: further, every digit of a cell
#: of under 32 bytes lies 10^10 s or more before it, or 11 decimals or more after it.
_NS_SHIFT = _NS_WIDTH + 12
#: The seconds from which float64 is coarser than 1 ns (2^-29 s apart): a time of no
#: whole nanosecond is rounded to one from here; below, its float is the finer.
_ROUNDED_FROM_S = 2**23
#: The most whole seconds whose nanoseconds, with any fraction, an int64 holds.
_MAX_WHOLE_S = (2**63 - 1) // 10**9 - 1
#: The dtype of a column read as text: each cell as long as it is. WHY: a fixed-width
#: ``str`` column is its widest cell's width times the rows, 4 bytes a character: one
#: 10 MB line in a 200-row ``timing.csv`` took 131 s and 15.8 GB before it was refused.
TEXT = np.dtypes.StringDType()


@dataclass(frozen=True, slots=True)
class CsvTable:
    """The columns of a log file by header name; text columns stay strings.

    ``rows`` is the number of data rows; ``line_count`` the file's lines; ``skipped``
    the 1-based numbers of its blank and ``#`` lines, from which :meth:`line_of` maps a
    row index to its 1-based line number in the file, for error messages. WHY not the
    lines: every line kept as a str to name one in an error held the whole file again,
    as Python strings, beside the columns (a 37 MB JointState log of 10^6 rows peaked
    at 221 MB, 93 MB of it those lines).
    """

    path: Path
    columns: dict[str, AnyArray]
    rows: int
    line_count: int = 0
    skipped: tuple[int, ...] = ()
    #: Whether a data line holds a non-ASCII character or a NUL byte (checked per cell
    #: where a column is read as numbers).
    odd: bool = False
    #: The data lines, kept only where ``odd`` (to name such a cell when it is read).
    odd_rows: tuple[str, ...] = ()
    #: The first column's cells as integer nanoseconds, exact (``read_csv_table``'s
    #: ``time_ns``): shape ``(rows,)``, int64; None where not asked for or not all such.
    time_ns: Int64Array | None = None

    def line_of(self, row: int) -> int:
        """Find the 1-based line number of data row ``row`` (-1: the header's)."""
        number = row + 2  # the header is the first line neither blank nor a comment
        for line in self.skipped:  # in order: each at or before the line shifts it on
            if line > number:
                break
            number += 1
        return min(number, self.line_count)

    def fail(self, row: int, column: str, expected: str, got: object) -> FormatError:
        """Build a :class:`FormatError` naming the file, the line of ``row`` and ``column``."""
        return FormatError(
            f"{self.path}:{self.line_of(row)}: column `{column}`: expected {expected}, got "
            f"{shown_token(got) if isinstance(got, str) else repr(got)}"
        )

    def refuse(
        self,
        bad: BoolArray,
        column: str,
        expected: str,
        got: AnyArray,
        beside: Float64Array | None = None,
    ) -> None:
        """Raise :meth:`fail` at the first row where ``bad`` holds, showing ``got`` there.

        ``bad``, ``got`` and ``beside`` are of shape ``(rows,)``; a text cell of ``got``
        is shown quoted, a number as its ``repr`` (as :meth:`fail` shows them). With
        ``beside``, its value in that row (its ``repr``) fills the ``{}`` of ``expected``:
        the stamp the cell is compared with.

        Raises
        ------
        FormatError
            ``bad`` holds in some row.
        """
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            if beside is not None:
                expected = expected.format(repr(float(beside[row])))
            raise self.fail(row, column, expected, got[row : row + 1].tolist()[0])

    def refuse_backward(
        self,
        column: str,
        values: Float64Array | Int64Array,
        expected: str,
        *,
        strict: bool = True,
    ) -> None:
        """Raise :meth:`fail` at the first row not after the previous (``strict``), or before it.

        ``values`` is the column, shape ``(rows,)``: float64, or int64 nanoseconds (the
        first column's ``time_ns``, compared and said exactly: WHY: 1700000000.000000001
        and .000000002 s are one float64, and were refused as one time);
        ``expected`` is the message's expectation with ``{}`` where the previous row's
        value goes (its ``repr``, or the nanoseconds as seconds). The rows are compared,
        not subtracted: ``np.diff`` of -1e308 and 1e308 overflows.

        Raises
        ------
        FormatError
            A row out of order.
        """
        backward = values[1:] <= values[:-1] if strict else values[1:] < values[:-1]
        if backward.any():
            row = int(np.flatnonzero(backward)[0]) + 1
            before, got = value_said(values, row - 1), value_said(values, row)
            msg = (
                f"{self.path}:{self.line_of(row)}: column `{column}`: expected "
                f"{expected.format(before)}, got {got}"
            )
            raise FormatError(msg)

    def floats(self, name: str) -> Float64Array:
        """Column ``name`` as float64, or an empty array when the column is absent."""
        return np.asarray(self.columns.get(name, np.empty(0)), dtype=np.float64)

    def numbers(self, name: str, *, gaps: bool = False) -> Float64Array:
        """Read column ``name``, kept as text (``others="text"``), as a required number column.

        Parameters
        ----------
        name : str
            A column of the header.
        gaps : bool
            An empty or ``nan`` cell is NaN (a dropout) instead of refused; ``inf`` stays
            refused.

        Returns
        -------
        ndarray, shape (rows,), float64

        Raises
        ------
        FormatError
            A cell that is not a finite number (or, with ``gaps``, empty or NaN), naming
            the file, line and column.
        """
        column = self.columns[name]
        if column.dtype != TEXT:  # read as numbers already, each cell checked
            return np.asarray(column, dtype=np.float64)
        if self.odd:
            header = list(self.columns)
            others = tuple(n for n in header if n != name)
            _refuse_odd_number(self, header, list(self.odd_rows), others)
        return _parsed(self, name, column, required=True, gappy=gaps)


def read_csv_table(
    path: Path,
    *,
    required: tuple[str, ...] | Callable[[list[str]], tuple[str, ...]],
    optional: tuple[str, ...] = (),
    text: tuple[str, ...] = (),
    others: bool | Literal["text"] = False,
    gaps: bool = False,
    drop_cut_line: bool = False,
    nothing: tuple[str, ...] = (),
    time_ns: bool = False,
) -> CsvTable:
    r"""Read a headed comma-separated log into named columns.

    Parameters
    ----------
    path : Path
        The file, or ``example:NAME`` for a log shipped with the package.
    required : tuple of str, or callable
        Columns that must be present; numeric ones must hold a finite number in every row.
        A callable: of the header's names, returning them (what a file needs depends on
        its layout).
    optional : tuple of str
        Columns that may be absent; empty cells in them read as NaN.
    text : tuple of str
        Which of the required or optional columns hold text (kept as stripped strings).
    others : bool
        Take the columns the header names beyond ``required`` and ``optional`` as
        required numeric columns, in the header's order (a signal log names its channels);
        by default such a column is refused. Every column then needs a name. ``"text"``:
        such a column is read as numbers where each of its own cells is one (finite, or a
        gap with ``gaps``) in an ASCII file, whatever the other columns hold, else kept as
        text; :meth:`CsvTable.numbers` reads the ones the caller takes as numbers (a
        signal log's channels), either way.
    gaps : bool
        Read an empty or ``nan`` cell of a required numeric column other than the
        header's first as NaN, a missing sample (a signal log's dropout), where it is
        refused by default; ``inf`` stays refused, and so does any gap in the first column
        (the time).
    drop_cut_line : bool
        Leave out a last line without a newline at its end: the line a writer that
        stopped was writing (:func:`robot_msgs.runs.load_run` asks for it).
    nothing : tuple of str
        The columns a file of no bytes at all has, no rows: what a logger that writes
        only when something happens leaves where nothing did (a tracking log without a
        loss). Empty (the default): such a file is refused, as one with no header.
    time_ns : bool
        Also read the first column, a time in seconds, into ``CsvTable.time_ns`` as
        integer nanoseconds, where each of its cells is a decimal within int64's
        nanoseconds, under 32 bytes: exactly, or the nearest from 2^23 s
        (``1700000000.123456789``, ``1.7e0009``, ``1700000000.1234567891``; not
        ``0.1234567891``: else None). WHY: as float64, seconds since 1970 keep only
        2.4e-7 s (:func:`_nanoseconds`).

    Returns
    -------
    CsvTable
        Numeric columns as float64 arrays of shape ``(rows,)``, text columns as ``str``
        arrays.

    Raises
    ------
    FormatError
        Missing file, no header, a missing or unknown column, a row with another
        number of cells, a cell that is not a number, or an empty or non-finite
        required cell; the message names the file, line and column.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(folder.name) / "log.csv"
    >>> _ = path.write_text("time_s,cpu_percent\n0.0,50\n1.0,75.5\n")
    >>> read_csv_table(path, required=("time_s", "cpu_percent")).columns["cpu_percent"]
    array([50. , 75.5])
    >>> _ = path.write_text("time,name,position,mode\n0,elbow,0.5,auto\n1,elbow,0.7,1\n")
    >>> table = read_csv_table(path, required=(), text=("name",), others="text")
    >>> [str(table.columns[name].dtype) for name in ("position", "mode")]
    ['float64', 'StringDType()']
    >>> folder.cleanup()
    """
    from robot_msgs.documents import wide_text_error  # noqa: PLC0415
    from robot_msgs.io.bounded import read_input, stream_kind  # noqa: PLC0415 - first log
    from robot_msgs.io.examples import resolve_path  # noqa: PLC0415
    from robot_msgs.limits import current_limits  # noqa: PLC0415

    try:
        # Bounded as every input (--max-bytes): a 204 MB log was read whole, unbounded,
        # to 2.1 GB of memory (a review).
        # example:NAME reaches a shipped log (`track example:control_servo/command.csv`);
        # errors name the path as given.
        resolved = resolve_path(path)
        if stream_kind(resolved) is None:  # a file; a pipe is read once, whole, below
            _refuse_a_file_without_lines(resolved, read_input(resolved, head=_HEAD_BYTES))
        data = read_input(resolved, limit=current_limits().max_bytes)
    except FileNotFoundError as err:
        msg = f"{path}: no such file"
        raise FormatError(msg) from err
    # Asked first: UTF-16 without a byte-order mark is valid UTF-8 (ASCII and NULs), and
    # was refused by its cells ("expected 2 comma-separated cells ..., got 1").
    wide = wide_text_error(data, source=str(path))
    if wide is not None:
        raise wide
    try:
        raw = data.decode("utf-8-sig")  # a UTF-8 BOM (Excel's "CSV UTF-8") is dropped
    except UnicodeDecodeError as err:
        msg = f"{path}: expected UTF-8 text, got undecodable bytes"
        raise FormatError(msg) from err
    if not data and nothing:
        kinds = {name: np.empty(0, dtype=TEXT if name in text else np.float64) for name in nothing}
        return CsvTable(path=path, columns=kinds, rows=0)
    lines = tuple(raw.splitlines())
    if drop_cut_line and raw and not raw.endswith(("\n", "\r")):
        lines = lines[:-1]
    del data, raw  # the file held once, as its lines, while the columns are parsed
    content = [line for line in lines if not _COMMENT.match(line)]
    skipped = (
        tuple(n for n, line in enumerate(lines, start=1) if _COMMENT.match(line))
        if len(content) < len(lines)
        else ()
    )
    line_count = len(lines)
    del lines  # the strings stay in content while parsed, not past it
    if not content:
        msg = f"{path}:1: expected a header line naming the columns, got an empty file"
        raise FormatError(msg)
    header = [name.strip() for name in content[0].split(",")]
    header_line = next((i for i, n in enumerate(skipped, start=1) if n != i), len(skipped) + 1)
    if callable(required):
        required = required(header)
    given_text = text
    if others:
        if "" in header:
            msg = (
                f"{path}:{header_line}: expected a name for every column, got none for column "
                f"{header.index('') + 1}"
            )
            raise FormatError(msg)
        more = tuple(n for n in header if n not in required and n not in optional)
        if others == "text":
            text += more
            optional += more
        else:
            required += more
    # The required columns whose missing samples read as NaN (a dropout), not refused.
    gappy = frozenset(header[1:]) if gaps else frozenset()
    allowed = (*required, *optional)
    for name in header:
        if name not in allowed:
            msg = (
                f"{path}:{header_line}: expected columns among {list(allowed)}, got "
                f"{shown_token(name)}"
            )
            raise FormatError(msg)
    if len(set(header)) != len(header):
        msg = f"{path}:{header_line}: expected distinct column names, got {header}"
        raise FormatError(msg)
    missing = [name for name in required if name not in header]
    if missing:
        close = did_you_mean(missing[0], header)  # `track --channels elbw`
        msg = f"{path}:{header_line}: expected a column {missing[0]!r}, got columns {header}{close}"
        raise FormatError(msg)
    rows = content[1:]
    del content
    body = "\n".join(rows)
    odd = not body.isascii() or "\x00" in body
    commas = body.count(",")
    del body  # not held beside the columns
    table = CsvTable(
        path=path,
        columns={},
        rows=len(rows),
        line_count=line_count,
        skipped=skipped,
        odd=odd,
        odd_rows=tuple(rows) if odd else (),
        time_ns=_nanoseconds(rows) if time_ns else None,
    )
    if odd:
        _refuse_odd_number(table, header, rows, text)
    _read_columns(
        table,
        header,
        rows,
        commas,
        text=text,
        loose=frozenset(text) - frozenset(given_text),
        required=frozenset(required),
        gappy=gappy,
    )
    return table


def _parsed(
    table: CsvTable, name: str, column: AnyArray, *, required: bool, gappy: bool
) -> Float64Array:
    """Read the text cells ``column`` (shape ``(rows,)``) of column ``name`` as float64.

    An empty cell is NaN: refused in a ``required`` column unless ``gappy``; a non-finite
    number is refused in a ``required`` one (``inf`` even when ``gappy``).
    """
    empty = column == ""
    if required and not gappy:
        table.refuse(empty, name, "a number", column)
    try:
        values: Float64Array = np.where(empty, "nan", column).astype(np.float64)
    except ValueError as err:
        raise _not_number(table, name, column) from err
    if gappy:
        table.refuse(np.isinf(values), name, "a finite number or an empty cell", column)
    elif required:
        table.refuse(~np.isfinite(values), name, "a finite number", column)
    return values


def _refuse_a_file_without_lines(path: Path, head: bytes) -> None:
    """Refuse a file whose first :data:`_HEAD_BYTES` bytes hold no line end: no header.

    WHY: read whole, a 1 GiB sparse ``timing.csv`` (zeros, no newline) took 2.1 GB and
    45 s of a sweep's worker before its header was refused, within ``--max-bytes``.
    """
    if len(head) == _HEAD_BYTES and b"\n" not in head and b"\r" not in head:
        msg = (
            f"{path}:1: expected a header line naming the columns, got no line end in the "
            f"first {_HEAD_BYTES >> 20} MiB (not a CSV log)"
        )
        raise FormatError(msg)


def _refuse_odd_number(
    table: CsvTable, header: list[str], rows: list[str], text: tuple[str, ...]
) -> None:
    """Refuse a numeric cell holding a non-ASCII character or a NUL byte.

    WHY: NumPy read both as a number without a word: ``loadtxt`` took the Arabic-Indic
    digit ``٥`` as 5 (Python's ``float`` reads any Unicode digit) and ``5<NUL>`` as 5 (its
    strings drop trailing NULs), where the trajectory readers refuse them.
    """
    for row, line in enumerate(rows):
        for index, cell in enumerate(line.split(",")):
            name = header[index] if index < len(header) else None
            if name is None or name in text or (cell.isascii() and "\x00" not in cell):
                continue
            note = non_ascii_note(cell) or " (a NUL byte in it)"
            raise table.fail(row, name, f"a number{note}", cell.strip())


def _read_columns(
    table: CsvTable,
    header: list[str],
    rows: list[str],
    commas: int,
    *,
    text: tuple[str, ...],
    loose: frozenset[str],
    required: frozenset[str],
    gappy: frozenset[str],
) -> None:
    r"""Fill ``table.columns``: the numbers parsed as float64 at once, the text a column at a time.

    ``rows`` are the data lines, ``commas`` the commas in them. The numeric columns (and
    the ``loose`` ones whose first cell is a number or empty) are parsed in C by one
    ``numpy.loadtxt`` of those columns; a column that fails (a cell not a number, an
    empty or non-finite cell where refused) is read again alone as text and checked cell
    by cell by :func:`_parsed`, which names the cell. Text columns are read alone,
    as :data:`TEXT`.
    WHY: every cell was read as a fixed-width string, the widest cell's width times
    rows times columns (a 33 MB JointState log of 10^6 rows took 626 MB and 6.2 s).
    A ``loose`` column is text where its first cell is, else numbers where every cell is
    one (else text, for :meth:`CsvTable.numbers` to name the cell).

    Raises
    ------
    FormatError
        A row with another number of cells than the header (before any cell is
        judged), then the first bad cell of a numeric column in the header's order.
    """
    if table.rows == 0:
        for name in header:
            table.columns[name] = np.empty(0, dtype=TEXT if name in text else np.float64)
        return
    first = rows[0].split(",")
    numeric = [
        index
        for index, name in enumerate(header)
        if name not in text
        # NumPy reads a non-ASCII digit as a number: such a file's loose columns stay text,
        # for CsvTable.numbers to refuse the cell (_refuse_odd_number).
        or (name in loose and not table.odd and index < len(first) and _a_number(first[index]))
    ]

    def accepted(index: int, values: Float64Array) -> bool:
        name = header[index]
        if name in gappy:
            return not np.isinf(values).any()
        return (name not in required and name not in loose) or bool(np.isfinite(values).all())

    read: dict[int, AnyArray] = {}
    together = _loaded(rows, numeric, np.float64)
    for k, index in enumerate(numeric):
        # one column failed (or a row is short): each is read alone, to find which
        alone = together if together is not None else _loaded(rows, [index], np.float64)
        if alone is not None and accepted(index, alone[:, k if together is not None else 0]):
            read[index] = alone[:, k if together is not None else 0]
    for index in range(len(header)):
        if index not in read:
            # As Python str, then text: NumPy 2.4's loadtxt of StringDType fails on a long
            # cell (MemoryError "Failed to load string"), its str is fixed-width (TEXT).
            cells = _loaded(rows, [index], object)
            if cells is None:  # a row with fewer cells
                raise _ragged(table, header, rows)
            read[index] = np.strings.strip(cells[:, 0].astype(TEXT))
    # Each row has a cell in the last column (it was read): as many commas as the
    # header's in every row, or one row has more.
    if commas != table.rows * (len(header) - 1):
        raise _ragged(table, header, rows)
    for index, name in enumerate(header):
        column = read[index]
        if column.dtype == TEXT and name not in text:
            column = _parsed(table, name, column, required=name in required, gappy=name in gappy)
        table.columns[name] = column


def _nanoseconds(rows: list[str]) -> Int64Array | None:
    """Read the first cell of each of ``rows`` as integer nanoseconds, or None if one is not one.

    A cell is a decimal: an optional sign, digits and at most one point, then an optional
    exponent (``e`` or ``E``, a sign, digits: ``1.7e0009`` too), blanks around it, whose
    whole seconds int64's nanoseconds hold. Its value is read exactly, then rounded to the
    nearest nanosecond, a tie to the even one (as ``round(Fraction(cell) * 10**9)``),
    where it is 2^23 s or more: float64 is coarser there (``1700000000.1234567891``, 10
    decimals since 1970, is ``...123456789`` ns, off 0.1 ns; its float, 1.2e-7 s). Below
    2^23 s (97 days since boot, where a float's ``repr`` has 10 or more decimals) a part
    of a nanosecond (``0.1234567891``) makes the column None: the floats are finer than
    1 ns there. Anything else makes the column None too, and its errors are the float
    reading's: an exponent past float64 (``1e+0099999``) is refused as no finite number,
    one line naming the file, line and column.
    Vectorised over a block of rows' bytes (:func:`_decimal_ns`). WHY: ``1700000000.123456789``
    read as float64 is ``1700000000.1234567`` (floats are 2.4e-7 s apart there), and a
    first-order response's IAE over such stamps was 1.5e-7 relative off its closed form
    (``robot-msgs track``, measured); its nanoseconds less the first keep it within 4e-17.
    NumPy's ``savetxt`` writes ``1.700000000123456717e+09`` (``%.18e``): exact, as read.

    A decimal is read as typed, also where a logger typed a float's ``repr``
    (``str(time.time())``, ``1700000000.1234567``): the shortest decimal that reads back
    as that float, within half its spacing (1.2e-7 s) of the float's own binary value, as
    that value is of the clock's; neither is nearer the clock, and the decimals keep the
    floats' order (each lies in its float's rounding interval).

    Examples
    --------
    >>> _nanoseconds(["1700000000.123456789,1", "-0.5,2", "+3,3", " .25 ,4", "7"]).tolist()
    [1700000000123456789, -500000000, 3000000000, 250000000, 7000000000]
    >>> _nanoseconds(["1.7e9,1", "1.700000000123456717e+09,2", "25E-9,3"]).tolist()
    [1700000000000000000, 1700000000123456717, 25]
    >>> _nanoseconds(["1700000000.1234567895,1", "1.7e0009,2"]).tolist()
    [1700000000123456790, 1700000000000000000]
    >>> _nanoseconds(["2.5e-10,1"]), _nanoseconds(["0.1234567891,1"]), _nanoseconds(["1 2,1"])
    (None, None, None)
    """
    out = np.empty(len(rows), dtype=np.int64)
    for start in range(0, len(rows), _NS_ROWS):
        block = _decimal_ns(rows[start : start + _NS_ROWS])
        if block is None:
            return None
        out[start : start + block.size] = block
    return out


def _decimal_ns(rows: list[str]) -> Int64Array | None:
    """:func:`_nanoseconds` of a block of ``rows``, read from their first ``_NS_WIDTH`` bytes.

    The rows as a matrix of bytes, shape ``(N, _NS_WIDTH)`` (a character not ASCII as
    ``?``), each cell to its first comma; its mantissa's digits, the point left out, then
    weighed by powers of ten from the place the point moves to by the exponent: 10 places
    before it and 9 after, the 10th after and whether a digit not 0 follows it rounding
    them (every digit before them 0, else 10^10 s or more). WHY: the cells read by
    ``np.loadtxt`` as text, then a character place at a time, cost 1.2 to 1.4 s of a
    10^6-row log's 4.5 s, so 0.65 to 0.7 s (measured); the place loop also ran once per
    character of the longest cell.
    """
    n = len(rows)
    try:
        raw = np.array(rows, dtype=f"S{_NS_WIDTH}")  # cut at _NS_WIDTH bytes
    except UnicodeEncodeError:  # a row not all ASCII: its characters kept in place
        raw = np.array([row[:_NS_WIDTH].encode("ascii", "replace") for row in rows])
        raw = raw.astype(f"S{_NS_WIDTH}")
    codes = raw.view(np.uint8).reshape(n, _NS_WIDTH)
    every = np.arange(n)
    stop, ended = _first(every, (codes == ord(",")) | (codes == 0))  # 0: past a row's end
    if not ended.all():
        return None  # a cell of _NS_WIDTH bytes or more
    cell = _BEFORE[stop]
    digit = (codes - np.uint8(ord("0")) <= 9) & cell
    dot = (codes == ord(".")) & cell
    sign = ((codes == ord("+")) | (codes == ord("-"))) & cell
    mark = ((codes | np.uint8(0x20)) == ord("e")) & cell  # e or E
    blank = ((codes - np.uint8(9) <= 4) | (codes - np.uint8(28) <= 4)) & cell  # str.strip's
    body = digit | dot | sign | mark
    first, _ = _first(every, body)
    point, dotted = _first(every, dot)
    last = first + (body.astype(np.float32) @ _ONES).astype(np.int64) - 1  # a count, exact
    # The mantissa's places end at the e, or past the body; its digits only are weighed.
    end, whole_digit, exponent, signed = last + 1, digit, np.zeros(n, dtype=bool), 0
    bad_exponent = False
    has_e = bool(mark.any())
    if has_e:  # else none of this: 0.1 s of 10^6 rows' 0.35 s (measured)
        at_e, exponent = _first(every, mark)
        end = np.where(exponent, at_e, end)
        whole_digit = digit & _BEFORE[end]
        signed = int(np.count_nonzero(sign[every, np.minimum(at_e + 1, _NS_WIDTH - 1)] & exponent))
        powers = digit & ~_BEFORE[at_e + 1] & exponent[:, None]  # the exponent's digits
        bad_exponent = (
            np.count_nonzero(mark) != np.count_nonzero(exponent)  # one e at most
            or bool((dotted & exponent & (point > at_e)).any())  # a point in the exponent
            or bool((exponent & ~digit[every, last]).any())  # an exponent without a digit
        )
    lead, any_digit = _first(every, whole_digit)
    if (
        bad_exponent
        or not any_digit.all()  # so none blank
        or ((body | blank) != cell).any()  # another character
        or np.count_nonzero(body[:, 1:] & ~body[:, :-1]) + np.count_nonzero(body[:, 0]) != n
        # a sign first, or just after the e, only
        or np.count_nonzero(sign) != np.count_nonzero(sign[every, first]) + signed
        or np.count_nonzero(dot) != np.count_nonzero(dotted)  # one point at most
    ):
        return None
    point = np.where(dotted, point, end)  # or past the mantissa's last digit
    digits = (codes - np.uint8(ord("0"))) * whole_digit
    # The exponent: its digits weighed from its last place back (0 for others), signed.
    shift = np.zeros(n, dtype=np.int64)
    kept = 1  # the places the point keeps among the digits: its own, 0
    if has_e:
        tens = np.zeros((n, _NS_WIDTH + _EXPONENT_DIGITS), dtype=np.uint8)
        tens[:, _EXPONENT_DIGITS:] = (codes - np.uint8(ord("0"))) * powers
        back = (every * tens.shape[1] + last + 1)[:, None] + np.arange(_EXPONENT_DIGITS)
        shift = tens.ravel()[back].astype(np.int64) @ _POW10[_EXPONENT_DIGITS - 1 :: -1]
        # A digit not 0 before the last _EXPONENT_DIGITS: 1000 places or more. Looked for
        # on the rows of a longer exponent only (``e+09`` has none): 40 ms of 10^6 rows.
        long = np.flatnonzero(exponent & (last - at_e > _EXPONENT_DIGITS))
        if long.size:
            before = _BEFORE[np.maximum(last[long] - _EXPONENT_DIGITS + 1, 0)]
            far = powers[long] & before & (codes[long] != ord("0"))
            shift[long[far.any(axis=1)]] = _POW10[_EXPONENT_DIGITS]
        after_e = codes[every, np.minimum(at_e + 1, _NS_WIDTH - 1)]
        shift = np.where(after_e == ord("-"), -shift, shift)
        # The point left out, as it moves: a digit after it moves back a place.
        after = ~_BEFORE[point] & dotted[:, None]
        digits[:, :-1] = np.where(after[:, :-1], digits[:, 1:], digits[:, :-1])
        kept = 0
    moved = point + np.clip(shift, -_NS_SHIFT, _NS_SHIFT)  # the point after the exponent
    # Each cell's 10 places before its point, the point's (if kept) and 10 after, as
    # digits (0 for others).
    reach = int(np.abs(moved - point).max())
    padded = np.zeros((n, _NS_WIDTH + 2 * reach + _AROUND.size), dtype=np.uint8)
    padded[:, reach + 10 : reach + 10 + _NS_WIDTH] = digits
    at = (every * padded.shape[1] + reach + moved)[:, None] + _AROUND
    aligned = padded.ravel()[at].astype(np.int64)
    # A digit not 0 outside them: 10^10 s or more (None), or past the 10th decimal (the
    # rounding's sticky part). Their places tell the rows all of whose digits lie within.
    moved_out = dotted * (1 - kept)  # the places the point's leaving moved a digit back
    wider = (lead - moved_out * (lead > point) < moved - 10) | (
        end - 1 - moved_out > moved + 9 + kept
    )
    sticky = np.zeros(n, dtype=bool)
    if wider.any():
        places, here = np.arange(_NS_WIDTH), moved[wider, None]
        held = digits[wider] != 0
        if (held & (places < here - 10)).any() or (
            (shift[wider] > _NS_SHIFT) & held.any(axis=1)
        ).any():
            return None
        sticky[wider] = (held & (places >= here + 10 + kept)).any(axis=1)
    whole = aligned[:, :10] @ _POW10[::-1]
    if (whole > _MAX_WHOLE_S).any():
        return None
    ns: Int64Array = whole * 10**9 + aligned[:, 10 + kept : 19 + kept] @ _POW10[8::-1]
    tenth = aligned[:, 19 + kept]
    if (((tenth > 0) | sticky) & (whole < _ROUNDED_FROM_S)).any():
        return None  # a part of a nanosecond where the floats are finer
    # To the nearest nanosecond, a tie to the even one (Fraction's round).
    ns += (tenth > 5) | ((tenth == 5) & (sticky | (ns % 2 == 1)))
    return np.where(codes[every, first] == ord("-"), -ns, ns)


def value_said(values: Float64Array | Int64Array, row: int) -> str:
    """Return ``values[row]`` as a refusal says it: int64 nanoseconds as decimal seconds.

    ``values`` is a column, shape ``(rows,)``: float64 (said by its ``repr``), or int64
    nanoseconds (a table's ``time_ns``, said as typed, :func:`_seconds_text`). WHY: the
    times 1700000000.000000001 and .000000002 s are one float64, and a refusal of the
    second said the first's time.

    Examples
    --------
    >>> value_said(np.array([0.594]), 0), value_said(np.array([1_700_000_000_000_000_001]), 0)
    ('0.594', '1700000000.000000001')
    """
    if values.dtype == np.int64:
        return _seconds_text(int(values[row]))
    return repr(float(values[row]))


def _seconds_text(ns: int) -> str:
    """Write integer nanoseconds ``ns`` as decimal seconds, as typed: ``1700000000.000000001``.

    Examples
    --------
    >>> _seconds_text(1_700_000_000_000_000_001), _seconds_text(-500_000_000), _seconds_text(2)
    ('1700000000.000000001', '-0.5', '0.000000002')
    >>> _seconds_text(10**9)
    '1.0'
    """
    whole, part = divmod(abs(ns), 10**9)
    sign = "-" if ns < 0 else ""
    return f"{sign}{whole}.{f'{part:09d}'.rstrip('0') or '0'}"


def _first(every: Int64Array, mask: BoolArray) -> tuple[Int64Array, BoolArray]:
    """Return each row's first True place in ``mask`` (shape ``(N, places)``), and if it has one.

    ``every`` is ``np.arange(N)``. WHY: ``mask.any(axis=1)`` took 8 times ``argmax``'s
    time on rows of 32 places (measured).
    """
    place = mask.argmax(axis=1)
    return place, mask[every, place]


def _a_number(cell: str) -> bool:
    """Whether the text ``cell`` is blank or a number (a column's first cell: numbers ahead)."""
    try:
        float(cell.strip() or "nan")
    except ValueError:
        return False
    return True


def _loaded(rows: list[str], columns: list[int], dtype: npt.DTypeLike) -> AnyArray | None:
    """Parse ``columns`` of the lines ``rows`` (shape ``(len(rows), len(columns))``), else None.

    None where a cell is not of ``dtype`` or a row has no cell in one of ``columns``; a
    row with more cells is not seen here. The list itself is handed to NumPy: a
    ``StringIO`` of the joined lines held them again as 4 bytes a character (a 33 MB
    log read to a peak of 422 MB, not 197 MB) and was slower (2.6 s against 2.0 s).
    """
    if not columns:
        return None
    try:
        return np.loadtxt(
            rows,
            dtype=dtype,
            delimiter=",",
            ndmin=2,
            comments=None,
            usecols=columns,
        )
    except ValueError:
        return None


def _ragged(table: CsvTable, header: list[str], rows: list[str]) -> FormatError:
    """Build the error for the first of the data lines ``rows`` with another cell count."""
    for row, line in enumerate(rows):
        if line.count(",") + 1 != len(header):
            return FormatError(
                f"{table.path}:{table.line_of(row)}: expected {len(header)} comma-separated "
                f"cells ({','.join(header)}), got {line.count(',') + 1}"
            )
    return FormatError(f"{table.path}: expected {len(header)} cells in every row")


def _not_number(table: CsvTable, name: str, column: AnyArray) -> FormatError:
    """Build the error for the first cell of ``column`` that is not a number."""
    for row, cell in enumerate(column.tolist()):
        try:
            float(cell or "nan")
        except ValueError:  # noqa: PERF203 - the error path only, once per bad file
            return table.fail(row, name, "a number", cell)
    return FormatError(f"{table.path}: column `{name}`: expected numbers")
