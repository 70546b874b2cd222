"""Numeric text tables: the vectorised parser under the TUM, KITTI and EuRoC readers.

A table is lines of numbers separated by spaces, tabs or commas, with ``#`` comments
(whole lines or line ends) and blank lines ignored. The fast path normalises the text
with a few whole-string operations and hands it to NumPy's C parser in one call; only
when that fails does a per-line loop run, and only to find the first bad line so the
error can name it (file, line, column, text).
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import FormatError

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence

    from robot_msgs.typing import Float64Array, Int64Array, IntpArray

__all__ = ["Table", "format_rows", "parse_table", "read_table", "read_text"]

_COMMENT = re.compile(r"#[^\n]*")
# A comma with nothing (or only blanks) before the next comma or the line end, or at
# the start of a line: an empty field, which whitespace splitting would silently drop.
_EMPTY_FIELD = re.compile(r",[ \t]*(?=,|\r?$)|^[ \t]*,", re.MULTILINE)
_FLOAT = re.compile(
    r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|nan|inf|infinity)", re.IGNORECASE
)
_FIRST_LINE = re.compile(r"^[ \t,]*[^\s,][^\n]*", re.MULTILINE)
_TEXT_SHOWN = 80


def read_text(path: str | os.PathLike[str], *, source: str | None = None) -> str:
    r"""The file's text, UTF-8 with an optional byte-order mark, or a :class:`FormatError`.

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
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        msg = (
            f"{source}: not a text file (byte {err.start} is not UTF-8); "
            "for a bag pass fmt='bag', 'bag2' or 'mcap'"
        )
        raise FormatError(msg) from err


def _shown(line: str) -> str:
    line = line.rstrip("\r\n")
    return repr(line if len(line) <= _TEXT_SHOWN else line[:_TEXT_SHOWN] + "...")


@dataclass(frozen=True)
class Table:
    """The numbers of a text table and where each row came from.

    Attributes
    ----------
    values : ndarray, shape (N, C), float64
        One row per data line, ``C`` the columns asked for.
    text : str
        The file's text after removing comments (line numbers unchanged).
    source : str
        The file, as messages name it.
    """

    values: Float64Array
    text: str
    source: str

    @cached_property
    def _data_lines(self) -> list[int]:
        """1-based line numbers of the data rows: a pass over the lines, run on demand."""
        lines = self.text.split("\n")
        return [i + 1 for i, line in enumerate(lines) if line.strip(" \t\r,")]

    def line_numbers(self, rows: IntpArray) -> list[int]:
        """The 1-based file line numbers of data rows ``rows``."""
        return [self._data_lines[int(r)] for r in rows]

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

    Returns
    -------
    Table
        ``values`` has shape ``(N, len(columns))``, float64.

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
    """
    ncols = len(columns)
    if "#" in text:
        text = _COMMENT.sub("", text)
    if header:
        text = _blank_header(text)
    if "," in text:
        bad = _EMPTY_FIELD.search(text) if _has_empty_field(text) else None
        if bad is not None:
            line_no = text.count("\n", 0, bad.start()) + 1
            line = text.split("\n")[line_no - 1]
            msg = f"{source}, line {line_no}: empty field between commas - text {_shown(line)}"
            raise FormatError(msg)
        normal = text.replace(",", " ")
    else:
        normal = text
    if "\t" in normal:
        normal = normal.replace("\t", " ")
    lines = normal.split("\n")
    values = _load(lines, ncols, extra_columns=extra_columns)
    if values is None or (values.shape[1] != ncols and values.size):
        raise _locate(lines, source=source, columns=columns, extra_columns=extra_columns)
    if values.shape[0] == 0:
        msg = f"{source}: no data rows (expected {ncols} numbers a row: {' '.join(columns)})"
        raise FormatError(msg)
    return Table(values=values, text=text, source=source)


def read_table(
    path: str | os.PathLike[str],
    *,
    columns: Sequence[str],
    extra_columns: bool = False,
    header: bool = False,
) -> Table:
    r"""Read the file ``path`` and parse it with :func:`parse_table`, naming it in errors.

    The one entry point of the TUM, KITTI (poses and times) and EuRoC readers.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "times.txt"
    >>> _ = file.write_text("0.5\n1.5\n")
    >>> read_table(file, columns=("t",)).values[:, 0]
    array([0.5, 1.5])
    """
    source = str(path)
    return parse_table(
        read_text(path, source=source),
        source=source,
        columns=columns,
        extra_columns=extra_columns,
        header=header,
    )


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
    if _FLOAT.fullmatch(fields[0]) is not None:
        return text
    return text[: first.start()] + text[first.end() :]


def _load(lines: list[str], ncols: int, *, extra_columns: bool) -> Float64Array | None:
    """NumPy's C parser over all lines at once; None when it refuses the input."""
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="loadtxt: input contained no data")
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
    lines: list[str], *, source: str, columns: Sequence[str], extra_columns: bool
) -> FormatError:
    """The error for the first bad line: the slow path, run only after a failure."""
    ncols = len(columns)
    expected = f"{'at least ' if extra_columns else ''}{ncols} columns ({' '.join(columns)})"
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < ncols or (len(fields) > ncols and not extra_columns):
            got = f"got {len(fields)} - text {_shown(line)}"
            msg = f"{source}, line {number}: expected {expected}, {got}"
            return FormatError(msg)
        for col, field in enumerate(fields[:ncols], start=1):
            if _FLOAT.fullmatch(field) is None:
                msg = (
                    f"{source}, line {number}, column {col} ({columns[col - 1]}): "
                    f"{field!r} is not a number - text {_shown(line)}"
                )
                return FormatError(msg)
    msg = f"{source}: could not read the numbers (expected {expected} a row)"
    return FormatError(msg)


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
    if values.shape[0] == 0:
        return ""
    pattern = separator.join(["%r"] * values.shape[1])
    rows = values.tolist()
    if leading_ints is None:
        return "\n".join(pattern % tuple(row) for row in rows) + "\n"
    pattern = "%d" + separator + pattern
    firsts = leading_ints.tolist()
    return "\n".join(pattern % (t, *row) for t, row in zip(firsts, rows, strict=True)) + "\n"
