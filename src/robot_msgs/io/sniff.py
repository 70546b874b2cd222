"""What the first lines of a text trajectory show: separator, columns, header names, stamp unit.

The evidence that :mod:`robot_msgs.io.detect` decides the format from, and that the TUM
and EuRoC readers check their file against, so that neither can be fooled:

- **TableHeader names.** A header line is read for its column names, with or without ``#``:
  a first line that starts with a word (``timestamp tx ty tz qx qy qz qw``), or the last
  ``#`` comment before the data that names as many columns as the data has (TUM RGB-D's
  ``# timestamp tx ty tz qx qy qz qw``, EuRoC's ``#timestamp [ns],p_RS_R_x [m],...``).
  Names such as ``qx``, ``q_RS_w []``, ``quat_z`` or ``orientation.w`` are quaternion
  components; where all four are named, their order is evidence: ``x, y, z, w`` in
  columns 5-8 is TUM's order, ``w, x, y, z`` EuRoC's (any other place or order is refused,
  as neither reader could follow it).
- **Stamp unit, by magnitude.** Integer stamps of 1e12 or more (31,700 years in
  seconds) are nanoseconds; so are integer stamps whose mean step as seconds would give
  a rate below 1e-6 Hz while as nanoseconds it is a plausible one. Stamps with a
  fraction cannot be integer nanoseconds; nor can integer stamps whose mean step as
  nanoseconds gives a rate above 1 MHz where as seconds it is plausible. A header whose
  stamp column states seconds (``# t[s] x y z qx qy qz qw``, what
  :func:`~robot_msgs.io.tum.write_tum` writes) is taken at its word: the TUM reader does
  not read its integer stamps as nanoseconds.

Only the first 64 KiB are read (a few hundred lines), so this costs the same for any
file size; the readers repeat the stamp test on every row, vectorised.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Literal

import numpy as np

from robot_msgs.errors import FormatError
from robot_msgs.io.clean import MAX_RATE_HZ, MIN_RATE_HZ
from robot_msgs.io.table import (
    NUMBER_TOKEN,
    datetime_pattern,
    datetime_stamps,
    is_header_word,
    lone_cr,
    non_ascii_note,
    read_bytes,
    shown_token,
    text_problem,
)

if TYPE_CHECKING:
    import os

    from robot_msgs.typing import Float64Array

__all__ = [
    "NS_MAGNITUDE",
    "TableHeader",
    "TextHead",
    "check_header",
    "dated_unit",
    "integer_stamp_unit",
    "nanosecond_evidence",
    "read_head",
    "seconds_evidence",
    "stated_ns_unit",
    "trajectopy_delimiter",
    "trajectopy_lines_after_data",
]

#: Integer stamps at or above this are nanoseconds: as seconds, 31,700 years.
NS_MAGNITUDE = 1e12

#: Unix time from 2000-01-01 to 2100-01-01, seconds: integer stamps that read as such a
#: date in one unit are in that unit (:func:`integer_stamp_unit`).
UNIX_SECONDS = (946_684_800.0, 4_102_444_800.0)

#: Poses faster than this are no trajectory's: integer stamps whose rate as nanoseconds
#: is higher are read in the next larger unit (:func:`integer_stamp_unit`).
MAX_POSE_RATE_HZ = 1e4

#: Poses slower than this (one in about 17 minutes) are no trajectory's: a coarser unit
#: that would give such a rate is no reading of stamps stated as nanoseconds
#: (:func:`stated_ns_unit`).
MIN_POSE_RATE_HZ = 1e-3

#: Integer stamps' units finer than seconds, and their divisors to seconds.
_UNIT_DIVISORS = (("nanoseconds", 1e9), ("microseconds", 1e6), ("milliseconds", 1e3))

SNIFF_BYTES = 1 << 16
_MAX_ROWS = 200
_COMMENT = re.compile(r"#[^\n]*")
_UNITS = re.compile(r"\[[^\]]*\]|\([^)]*\)")
# A blank-separated name: a word, or a unit in brackets, with the units after it (blanks
# before and inside a unit belong to the name): ``timestamp [ns]``, ``v [m s^-1]``.
_BLANK_NAME = re.compile(
    r"(?:\[[^\]]*\]|\([^)]*\)|[^\s\[(])+(?:\s+(?:\[[^\]]*\]|\([^)]*\))[^\s\[(]*)*|\S+"
)
_BLANKS = re.compile(r"\s+")
# A quaternion component: a name whose last part is x, y, z or w after a quaternion word
# (q, quat, quaternion, orientation, ori, rot, rotation), with any parts in between:
# qx, q_x, q.w, q_RS_w, quat_z, orientation.w, pose.orientation.x.
_QUAT_NAME = re.compile(
    r"(?:^|[._\-])(?:q|quat|quaternion|orientation|ori|rot|rotation)(?:[._\-][a-z0-9]+)*?[._\-]?([xyzw])$"
)

Order = Literal["xyzw", "wxyz"]

#: trajectopy's header line, its first name: ``fields``, a blank, the first field
#: (``#fields t,...``, comma-separated); a blank-separated ``# fields t x ...`` (its first
#: name ``fields`` alone) is some other comment.
_FIELDS_LINE = re.compile(r"fields\s")
#: The fields of trajectopy's ``#fields`` header that a pose needs, in TUM's order.
TRAJECTOPY_FIELDS = ("t", "px", "py", "pz", "qx", "qy", "qz", "qw")
#: trajectopy's header lines that change how its rows read (its ``io/header.py``, 5.1.2).
_TRAJECTOPY_KEYS = "time_format|gps_week|time_offset|delimiter|datetime_format|datetime_timezone"
_TRAJECTOPY_KEY = re.compile(rf"#\s*({_TRAJECTOPY_KEYS})\s+(.*)")
#: A line that may be one of them or a ``#fields`` line, in bytes, from the newline
#: before it: what is found below the rows, each then read by the rules above. WHY "\n#",
#: not "^#" with re.MULTILINE: a literal first, found as bytes.find finds it (1M rows
#: without a "#": 0.01 s, where "^" is tried at every byte, 0.15 s).
_TRAJECTOPY_KEY_BYTES = re.compile(rf"\n#[^\n]*?(?:{_TRAJECTOPY_KEYS}|fields)".encode())
#: trajectopy's GPS time: its week zero 1980-01-06 as Unix seconds, a week, and its
#: constant GPS - UTC leap seconds (``utils/definitions.py``): its unix stamp of a second
#: of week is sow + week * 604800 - 18 + 315964800.
_GPS_ZERO_UNIX_S, _WEEK_S, _GPS_LEAP_S = 315964800.0, 604800.0, 18.0
#: cnspy's (R. Jung) covariance columns after ``t,tx,ty,tz,qx,qy,qz,qw``, by its format:
#: ``PoseWithCov`` the upper triangle of ROS's 6x6 ``PoseWithCovariance`` (x, y, z, then
#: rotations a, b, c about x, y, z), ``PosOrientWithCov`` those of its position and
#: orientation blocks; each with its cell's row-major index, as its ROSBag2CSV writes them.
_CNSPY_COVARIANCE = {
    "PoseWithCov": (
        ("Txx", "Txy", "Txz", "Txa", "Txb", "Txc", "Tyy", "Tyz", "Tya", "Tyb", "Tyc",
         "Tzz", "Tza", "Tzb", "Tzc", "Taa", "Tab", "Tac", "Tbb", "Tbc", "Tcc"),
        (0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 14, 15, 16, 17, 21, 22, 23, 28, 29, 35),
    ),
    "PosOrientWithCov": (
        ("pxx", "pxy", "pxz", "pyy", "pyz", "pzz", "qrr", "qrp", "qry", "qpp", "qpy", "qyy"),
        (0, 1, 2, 7, 8, 14, 21, 22, 23, 28, 29, 35),
    ),
}  # fmt: skip
_CNSPY_POSE = ("t", "tx", "ty", "tz", "qx", "qy", "qz", "qw")
#: cnspy's "Typed" formats: the untyped one each extends, and its columns after it (text:
#: the error type, ``type1`` ..., and representation, ``theta_R`` ...; a scale first).
_CNSPY_TYPED = {
    "PoseTypedStamped": ("PoseStamped", ("scale", "est_err_type")),
    "PoseWithCovTyped": ("PoseWithCov", ("est_err_type", "err_representation")),
    "PosOrientWithCovTyped": ("PosOrientWithCov", ("est_err_type", "err_representation")),
}
#: cnspy's PoseErrorStamped: a pose's errors (position nu, angle theta) and their text
#: definition (type5,theta_R), no pose.
_CNSPY_POSE_ERROR = ("t", "nu_x", "nu_y", "nu_z", "theta_x", "theta_y", "theta_z",
                     "est_err_type", "err_representation")  # fmt: skip
#: The error definition cnspy's spatial formats may name after the covariance columns
#: (its ``EstimationErrorType``, then ``ErrorRepresentationType``), as names only.
_CNSPY_ERROR_TYPE = re.compile(r"type[1-8]|none")


@dataclass(frozen=True, slots=True, kw_only=True)
class TableHeader:
    """A header line and what its names say.

    Attributes
    ----------
    line : int
        The 1-based line number.
    names : tuple of str
        The column names, as written (units and ``#`` included).
    quaternion : {"xyzw", "wxyz"} or None
        The quaternion order the names give in columns 5-8; None when they do not name
        all four components.
    problem : str
        Non-empty when the names give the quaternion another place or order (the
        message says which).
    columns : tuple of int, or None
        trajectopy's ``#fields`` header: the 0-based columns of its fields ``t``, ``px``,
        ``py``, ``pz``, ``qx``, ``qy``, ``qz``, ``qw``, wherever they are (its files write
        ``t,l,px,py,pz,qx,qy,qz,qw,vx,vy,vz``); cnspy's header (its names in any order,
        as cnspy reads them by name): those of ``t``, ``tx`` ... ``qw``, then of its
        covariance columns in its order. None for any other header.
    stamp_shift_s : float
        Seconds trajectopy adds to the ``t`` column: its ``#time_offset``, and for
        ``#time_format gps_sow`` its ``#gps_week`` in Unix seconds (:func:`_trajectopy_time`).
    covariance : tuple of int, or None
        cnspy's ``PoseWithCov`` or ``PosOrientWithCov`` header: for each of ``columns``
        after the pose, the row-major index (0 ... 35) of its cell in the 6x6 pose
        covariance; None for any other header.
    delimiter : str
        trajectopy's ``#delimiter``, one character (``;``): the rows are read with it as
        their separator, as commas (:func:`~robot_msgs.io.table.read_table`); ``,`` for
        any other header.
    datetime_format : str or None
        trajectopy's ``#time_format datetime``: strptime's format of the stamps (its
        ``#datetime_format``, ``%Y-%m-%d %H:%M:%S.%f`` by default), read as Unix seconds
        (:func:`~robot_msgs.io.table.datetime_stamps`); with a comma for the blank that
        joins its two ``t`` columns (``#fields t,t,...``, date and time). None: numbers.
    note : str
        What the reader warns of reading it (a ``#datetime_timezone`` read as UTC).
    """

    line: int
    names: tuple[str, ...]
    quaternion: Order | None
    problem: str = ""
    columns: tuple[int, ...] | None = None
    stamp_shift_s: float = 0.0
    covariance: tuple[int, ...] | None = None
    delimiter: str = ","
    datetime_format: str | None = None
    note: str = ""

    @property
    def stamp_unit(self) -> str:
        """The unit the first column's name states in brackets, lower case; ``""`` if none.

        Examples
        --------
        >>> TableHeader(line=1, names=("# t[s]", "x"), quaternion=None).stamp_unit
        's'
        >>> TableHeader(line=1, names=("#timestamp [ns]", "x"), quaternion=None).stamp_unit
        'ns'
        >>> TableHeader(line=1, names=("t", "x"), quaternion=None).stamp_unit
        ''
        """
        if not self.names:
            return ""
        unit = _UNITS.search(self.names[0])
        return unit.group(0)[1:-1].strip().lower() if unit else ""

    @property
    def evidence(self) -> str:
        """The detection's reason: ``header names qx first`` (or ``qw``), or the tool's header.

        trajectopy's ``#fields`` and cnspy's covariance headers are named as such; empty
        when the header names no quaternion.
        """
        if self.covariance is not None:
            return f"cnspy's {self._cnspy_format} header: the pose, then its covariance"
        if self.columns is not None and "tx" in self.names:
            return "cnspy's header: t, tx, ty, tz, qx, qy, qz, qw read by name"
        if self.columns is not None:
            return f"trajectopy's #fields header: {', '.join(TRAJECTOPY_FIELDS)} read by name"
        if self.quaternion is None:
            return ""
        return f"header names {'qx' if self.quaternion == 'xyzw' else 'qw'} first"

    @property
    def _cnspy_format(self) -> str:
        return next(k for k, (_, cells) in _CNSPY_COVARIANCE.items() if cells == self.covariance)


@dataclass(frozen=True, slots=True, kw_only=True)
class TextHead:
    """The first lines of a text file, as evidence.

    Attributes
    ----------
    source : str
        The file, as messages name it.
    columns : int
        Fields of the first data line (0 when no line has data).
    separator : {"space", "tab", "comma"}
        Between the fields of the first data line (``comma`` when any comma is there).
    first_line : int
        Its 1-based line number (0 when none).
    header : TableHeader or None
        The header line, when there is one.
    numbers : ndarray, shape (R, columns), float64
        The first rows of numbers (up to :func:`read_head`'s ``rows``, 200 by default,
        those of the first data line's width, up to the first row that is not numbers);
        empty when the first data line is not.
    bad : str
        Non-empty when the first data line is not numbers: what is wrong, where.
    cut : bool
        Whether the file goes on past :data:`SNIFF_BYTES` (what was read is its head).
    """

    source: str
    columns: int
    separator: str
    first_line: int
    header: TableHeader | None
    numbers: Float64Array
    bad: str = ""
    cut: bool = False

    @property
    def layout(self) -> str:
        """``8 space-separated columns``, for the detection's reason."""
        return f"{self.columns} {self.separator}-separated column{'s' * (self.columns != 1)}"


def read_head(
    path: str | os.PathLike[str], *, source: str | None = None, rows: int = _MAX_ROWS
) -> TextHead:
    r"""Read what the first 64 KiB of the text file ``path`` show.

    ``rows`` bounds :attr:`TextHead.numbers`: the detection weighs up to 200 rows, a
    reader that reads the whole file after needs the header and the first row alone.

    Raises
    ------
    FormatError
        The bytes are not UTF-8 text lines (UTF-16, binary, CR-only line endings: see
        :func:`~robot_msgs.io.table.text_problem`); the header names the quaternion
        columns in a place or order no reader takes.
    IsADirectoryError, FileNotFoundError
        ``path`` is a folder, or there is no such file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = file.write_text("timestamp tx ty tz qx qy qz qw\n1.5 0 0 0 0 0 0 1\n")
    >>> head = read_head(file)
    >>> head.layout, head.header.evidence, head.numbers[:, 0].tolist()
    ('8 space-separated columns', 'header names qx first', [1.5])
    """
    if source is None:
        source = str(path)
    data = read_bytes(path, source=source, limit=SNIFF_BYTES)
    problem = text_problem(data, source=source)
    if problem is not None:
        raise problem
    cut = len(data) == SNIFF_BYTES
    if cut:  # the last line may be partial
        data = data[: data.rfind(b"\n") + 1] or data
    text = data.decode("utf-8-sig", errors="replace")
    head = _head(text.split("\n"), source=source, rows=rows)
    return replace(head, cut=True) if cut else head


def _fields(line: str) -> list[str]:
    """Split a data line into fields at commas, tabs and spaces; a ``#`` comment cut."""
    return line.split("#", 1)[0].replace(",", " ").split()


def _separator(line: str) -> str:
    body = line.split("#", 1)[0]
    if "," in body:
        return "comma"
    return "tab" if "\t" in body else "space"


def _names(line: str) -> tuple[str, ...]:
    """Return the column names of a header line (``#`` dropped; commas split, else blanks).

    Split at blanks, a unit in brackets stays with the name before it, as EuRoC writes
    it (``timestamp [ns]``, ``v [m s^-1]``), rather than being a column of its own.

    Examples
    --------
    >>> _names("#timestamp [ns] p_x [m] q_w []")
    ('timestamp [ns]', 'p_x [m]', 'q_w []')
    """
    body = line.strip().lstrip("#").strip()
    if "," in body:
        parts = body.split(",")
    else:
        parts = [_BLANKS.sub(" ", p) for p in _BLANK_NAME.findall(body)]
    return tuple(p.strip() for p in parts if p.strip())


def _component(name: str) -> str | None:
    """``x``, ``y``, ``z`` or ``w`` when ``name`` is a quaternion component, else None."""
    key = _UNITS.sub("", name).strip().lstrip("#").strip().lower()
    match = _QUAT_NAME.search(key)
    return match.group(1) if match else None


def _trajectopy_header(line: int, names: tuple[str, ...]) -> TableHeader:
    """Read trajectopy's ``#fields`` header: its fields by their names, wherever they are."""
    fields = (names[0][len("fields") :].strip(), *names[1:])
    twice = [f for f in TRAJECTOPY_FIELDS if fields.count(f) > 1]
    if twice:  # WHY: `t,t,...` read its first `t` silently; which one is meant is unknown
        problem = (
            f"line {line}: trajectopy's #fields header: expected each of "
            f"{', '.join(TRAJECTOPY_FIELDS)} once, got {', '.join(twice)} more than once "
            f"in {', '.join(fields)}"
        )
        return TableHeader(line=line, names=fields, quaternion=None, problem=problem)
    if all(f in fields for f in TRAJECTOPY_FIELDS):
        columns = tuple(fields.index(f) for f in TRAJECTOPY_FIELDS)
        return TableHeader(line=line, names=fields, quaternion="xyzw", columns=columns)
    problem = (
        f"line {line}: trajectopy's #fields header names {', '.join(fields)}: the readers "
        f"need the quaternion fields qx, qy, qz, qw, with t, px, py, pz (trajectopy writes "
        "them unless a trajectory has no orientation or is written as Euler angles)"
    )
    return TableHeader(line=line, names=fields, quaternion=None, problem=problem)


def _trajectopy_line(comments: list[tuple[int, str]], width: int) -> TableHeader | None:
    """Return the header of the last ``#fields`` comment, whatever its count; None: none.

    WHY whatever its count: a ``#fields`` line naming 9 fields over rows of 12 was not
    taken as a header (it names fewer columns than the data) and its 12 numbers a line
    were read as a KITTI file ("the 3x3 block is a reflection"); the line says what the
    columns are, so the count is checked against it and a mismatch said.
    """
    for at, comment in reversed(comments):
        names = _names(comment)
        if not names or _FIELDS_LINE.match(names[0]) is None:
            continue
        if _joined_t(comments):  # date and time in two columns: one stamp in the rows
            names = names[:1] + names[2:]
        header = _trajectopy_time(comments, _trajectopy_header(at, names))
        if len(header.names) != width and not header.problem:
            problem = (
                f"line {at}: trajectopy's #fields header: expected as many fields as the "
                f"rows have columns ({width}), got {len(header.names)}: "
                f"{', '.join(header.names)}"
            )
            return replace(header, quaternion=None, columns=None, problem=problem)
        return header
    return None


def _joined_t(comments: list[tuple[int, str]]) -> bool:
    """Tell trajectopy's ``#time_format datetime`` with ``#fields t,t,...`` (date, time).

    trajectopy joins the two ``t`` fields of each row with a blank and reads them with its
    ``#datetime_format``. Two ``t`` elsewhere in the fields are refused as before.
    """
    said = {m[1]: m[2].strip() for _, c in comments if (m := _TRAJECTOPY_KEY.match(c.strip()))}
    if said.get("time_format", "").lower() != "datetime":
        return False
    for _, comment in reversed(comments):
        names = _names(comment)
        if names and _FIELDS_LINE.match(names[0]) is not None:
            return names[0][len("fields") :].strip() == "t" and names[1:2] == ("t",)
    return False


def _cnspy_error_line(comments: list[tuple[int, str]], width: int) -> TableHeader | None:
    """Refuse cnspy's covariance header that ends naming its error definition; None: none.

    WHY: cnspy's spatial formats may end the header with the covariance's error type
    (``type1`` ... ``type6``: local or global) and representation (``R_small_theta``,
    ``q_small_theta`` ...), two names without columns. Passed over (it names more columns
    than the rows have), the rows were refused as TUM ("expected 8 columns"); read under
    ROS's definition (errors about the world's axes), a local one gives a wrong NEES.
    """
    for at, comment in reversed(comments):
        names = _names(comment)
        for covariance, _ in _CNSPY_COVARIANCE.values():
            pose = (*_CNSPY_POSE, *covariance)
            if (
                len(names) == len(pose) + 2 == width + 2
                and names[: len(pose)] == pose
                and _CNSPY_ERROR_TYPE.fullmatch(names[-2])
            ):
                problem = (
                    f"line {at}: cnspy's header names its covariance's error definition "
                    f"({names[-2]}, {names[-1]}), which the readers do not take: they read "
                    "a covariance as ROS defines it (its header without the two names, as "
                    "cnspy's ROSBag2CSV writes it)"
                )
                return TableHeader(line=at, names=names, quaternion=None, problem=problem)
    return None


def _trajectopy_time(comments: list[tuple[int, str]], header: TableHeader) -> TableHeader:
    """Take trajectopy's ``#time_offset`` and ``#time_format gps_sow`` with ``#gps_week``.

    WHY: both were read in silence as Unix seconds as written (``#time_offset 100``: every
    stamp 100 s early); as trajectopy reads them (its 5.1.2 gives 1525564783.5 for second
    1.0 of week 2000 with offset 0.5); a ``#time_format datetime`` as
    :func:`_trajectopy_datetime` says. gps_sow without its
    week (trajectopy takes the current one), or a ``#delimiter`` that is no one character
    (:func:`trajectopy_delimiter`) is refused naming its line; one that is, kept as
    :attr:`TableHeader.delimiter`.

    Examples
    --------
    >>> h = TableHeader(line=3, names=("t",), quaternion="xyzw")
    >>> _trajectopy_time([(1, "#time_format gps_sow"), (2, "#gps_week 2000")], h).stamp_shift_s
    1525564782.0
    >>> _trajectopy_time([(1, "#delimiter ';'")], h).delimiter
    ';'
    """
    said = {}
    for at, comment in comments:
        match = _TRAJECTOPY_KEY.match(comment.strip())
        if match is not None:
            said[match[1]] = (at, match[2].strip())
    at, value = said.get("delimiter", (0, "','"))
    delimiter = trajectopy_delimiter(value)
    if delimiter is None and not header.problem:
        shown = value if len(value) <= 40 else f"{value[:40]}..."
        problem = (
            f"line {at}: trajectopy's #delimiter {shown}: expected one character in quotes "
            "(';'), not a quote, '#', a letter, a digit or one of '.+-'"
        )
        return replace(header, quaternion=None, columns=None, problem=problem)
    header = replace(header, delimiter=delimiter or ",")
    shift, why = 0.0, ""
    at, value = said.get("time_offset", (0, "0"))
    try:
        shift = float(value)
    except ValueError:
        shift = math.nan
    if not math.isfinite(shift):
        why = f"line {at}: trajectopy's #time_offset {value}: expected finite seconds"
    at, value = said.get("time_format", (0, "unix"))
    if value.lower() == "datetime" and not why:
        return _trajectopy_datetime(said, replace(header, stamp_shift_s=shift), comments)
    if value.lower() == "gps_sow" and not why:
        week_at, week = said.get("gps_week", (0, ""))
        # ASCII digits read as a float: int() took '²' (isdigit) for a ValueError, and 400
        # digits overflowed the seconds (OverflowError): a finite number of seconds or none.
        week_s = float(week) * _WEEK_S if week.isascii() and week.isdigit() else math.nan
        if not math.isfinite(shift + week_s):
            shown = week if len(week) <= 40 else f"{week[:40]}..."
            why = (
                f"line {week_at or at}: trajectopy's #time_format gps_sow: expected its GPS "
                f"week as #gps_week WEEK, got {shown or 'none'} (trajectopy takes this week's)"
            )
        else:
            shift += week_s - _GPS_LEAP_S + _GPS_ZERO_UNIX_S
    elif value.lower() != "unix" and not why:
        why = (
            f"line {at}: trajectopy's #time_format {value}: the readers take Unix seconds "
            "(#time_format unix), GPS seconds of week (gps_sow, with #gps_week) or dates "
            "(datetime); write the stamps as one of them"
        )
    if why and not header.problem:
        return replace(header, quaternion=None, columns=None, problem=why)
    return replace(header, stamp_shift_s=shift)


def _trajectopy_datetime(
    said: dict[str, tuple[int, str]], header: TableHeader, comments: list[tuple[int, str]]
) -> TableHeader:
    """Take trajectopy's ``#time_format datetime``: its format, its two ``t``, its zone.

    WHY: such a file was refused by name, though trajectopy 5.1.2 reads it
    (tests/data/trajectopy_header_reference.json): ``2011-05-10 12:38:22.16`` is
    1305031102.16 s (UTC); ``#datetime_timezone GPS`` 18 s less (its constant leap
    seconds, as for gps_sow); another zone trajectopy warns of and reads as UTC, so here.
    A format with a directive other than ``%Y %m %d %H %M %S %f`` is refused naming its
    line; two ``t`` columns need one blank in it, where trajectopy joins them.
    """
    at, fmt = said.get("datetime_format", (0, "%Y-%m-%d %H:%M:%S.%f"))
    compiled = datetime_pattern(fmt)
    why = ""
    if isinstance(compiled, str):
        why = f"line {at}: trajectopy's #datetime_format {fmt}: {compiled}"
    elif _joined_t(comments):
        if len(re.findall(r"\s+", fmt)) != 1:
            why = (
                f"line {header.line}: trajectopy's #fields t,t (date and time) with "
                f"#datetime_format {fmt}: expected one blank in it, where the two are joined"
            )
        fmt = re.sub(r"\s+", ",", fmt)
    if why:
        return (
            header
            if header.problem
            else replace(header, quaternion=None, columns=None, problem=why)
        )
    at, zone = said.get("datetime_timezone", (0, "UTC"))
    shift, note = header.stamp_shift_s, ""
    if zone.strip("'\"").upper() == "GPS":
        shift -= _GPS_LEAP_S
    elif zone.strip("'\"").upper() != "UTC":
        shown = zone if len(zone) <= 40 else f"{zone[:40]}..."
        note = (
            f"line {at}: trajectopy's #datetime_timezone {shown} read as UTC, as trajectopy "
            "reads a zone other than UTC and GPS"
        )
    return replace(header, stamp_shift_s=shift, datetime_format=fmt, note=note)


def trajectopy_delimiter(value: str) -> str | None:
    """Return the character trajectopy's ``#delimiter VALUE`` names; None: none the readers take.

    trajectopy takes the text between the quotes (``';'``); a value without quotes is
    taken as written, an empty one as its default, a comma. None for several characters,
    and for one that a number or a comment holds, or a quote: each would split rows where
    trajectopy does not, or not where it does.

    Examples
    --------
    >>> trajectopy_delimiter("';'"), trajectopy_delimiter("|"), trajectopy_delimiter("';;'")
    (';', '|', None)
    """
    inner = value.strip()
    if len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "'\"":
        inner = inner[1:-1]
    if not inner:
        return ","
    if len(inner) != 1 or inner.isalnum() or inner in "'\"#.+-\r\n":
        return None
    return inner


def _delimited(comments: list[tuple[int, str]], lines: list[str], first: int) -> None:
    """Write trajectopy's ``#delimiter`` in ``lines`` from line ``first`` on as commas, in place.

    WHY: its rows (``1.0;0;0;...``), one field each split at commas and blanks, were no
    rows of numbers; as commas they are read by the one road every table takes. A
    ``#delimiter`` the readers do not take is left for :func:`_trajectopy_time` to refuse.
    """
    said = {m[1]: m[2] for _, c in comments if (m := _TRAJECTOPY_KEY.match(c.strip()))}
    delimiter = trajectopy_delimiter(said.get("delimiter", ""))
    if delimiter in (None, ",", " ", "\t"):
        return
    assert delimiter is not None  # noqa: S101 - for mypy: None returned above
    for k in range(first - 1, len(lines)):
        lines[k] = lines[k].replace(delimiter, ",")


def _dated(comments: list[tuple[int, str]], lines: list[str], first: int, *, source: str) -> None:
    """Write trajectopy's dated stamps in ``lines`` from line ``first`` on as seconds, in place.

    WHY: the sniffer counts and checks the rows' numbers; as
    :func:`~robot_msgs.io.table.read_table` reads them, they are numbers. A row not so
    dated is refused here, naming its line (:class:`~robot_msgs.errors.FormatError`).
    """
    header = _trajectopy_time(comments, TableHeader(line=0, names=(), quaternion=None))
    if header.datetime_format is None or not any(
        (names := _names(c)) and _FIELDS_LINE.match(names[0]) for _, c in comments
    ):
        return  # trajectopy's keys count only with its #fields header
    text = "\n" * (first - 1) + "\n".join(lines[first - 1 :])  # its lines numbered
    dated = datetime_stamps(text.encode("utf-8"), header.datetime_format, source=source)
    lines[first - 1 :] = dated.decode("utf-8").split("\n")[first - 1 :]


def _cnspy_typed(line: int, names: tuple[str, ...]) -> TableHeader | None:
    """Refuse cnspy's "Typed" header, naming its format; None: not one.

    WHY: its rows end in text (``type5,theta_R``), refused as "'type5' is not a number"
    with the format unnamed; the readers take numbers, and ROS's covariance definition.
    So was its PoseErrorStamped, a file of errors and no poses.
    """
    if len(names) == len(_CNSPY_POSE_ERROR) and set(names) == set(_CNSPY_POSE_ERROR):
        problem = (
            f"line {line}: cnspy's PoseErrorStamped header: the file holds pose errors "
            "(nu_x ... theta_z), not poses; give the trajectories they were computed from"
        )
        return TableHeader(line=line, names=names, quaternion=None, problem=problem)
    for typed, (untyped, extra) in _CNSPY_TYPED.items():
        base = _CNSPY_COVARIANCE[untyped][0] if untyped in _CNSPY_COVARIANCE else ()
        if len(names) == len(_CNSPY_POSE) + len(base) + len(extra) and set(names) == {
            *_CNSPY_POSE, *base, *extra
        }:  # fmt: skip
            said = (
                ", its covariance as ROS defines it (cnspy's type6: errors of the position "
                "and about the world's axes)"
                if base
                else ""
            )
            problem = (
                f"line {line}: cnspy's {typed} header: its columns {', '.join(extra)} are not "
                f"read (est_err_type is text); write the file as cnspy's {untyped} without "
                f"them{said}"
            )
            return TableHeader(line=line, names=names, quaternion=None, problem=problem)
    return None


def trajectopy_lines_after_data(
    path: str | os.PathLike[str], head: TextHead, header: TableHeader
) -> TableHeader:
    """Return trajectopy's ``header`` of ``head`` with its ``#`` lines after the first row read.

    trajectopy (5.1.2, its ``io/header.py``) reads every line that starts with ``#`` as its
    header, wherever it is in the file, the last of each key winning: a ``#time_offset``
    or ``#time_format`` below rows applies to every row. WHY: such a line was a comment
    here (``#time_offset 100`` above the rows and ``0.25`` between them: 101 s, where
    trajectopy reads 1.25 s). A ``#fields`` line there, which would change the columns of
    rows already read, is refused naming its line.

    Parameters
    ----------
    path : path-like
        The file ``head`` was read from (:func:`read_head`); read whole, its ``#`` lines
        that may hold a key found with one regular expression.
    head : TextHead
        Its head.
    header : TableHeader
        ``head.header``, trajectopy's ``#fields`` header.

    Returns
    -------
    TableHeader
        ``header``, its ``stamp_shift_s`` from every line; with a ``problem``
        (:func:`check_header`) for a ``#fields`` line after the first row, or a later key
        the readers do not take.
    """
    data = read_bytes(path, source=head.source)
    start = 0
    for _ in range(head.first_line - 1):  # the first row's offset
        start = data.find(b"\n", start) + 1
    later: list[tuple[int, str]] = []
    number, counted = head.first_line, start
    # trajectopy's rule: a line that starts with #. Only its key lines, not each comment:
    # a Python loop over 300k "# comment" lines between rows read in 3.0 s, not 0.32 s.
    for hit in _TRAJECTOPY_KEY_BYTES.finditer(data, start - 1):  # from the row's newline
        number += data.count(b"\n", counted, hit.start() + 1)
        counted = hit.start() + 1
        end = data.find(b"\n", counted)
        text = data[counted : end if end != -1 else len(data)]
        later.append((number, text.decode("utf-8", errors="replace").rstrip("\r")))
    if not later:
        return header
    for at, comment in later:
        names = _names(comment)
        if names and _FIELDS_LINE.match(names[0]) is not None and not header.problem:
            problem = (
                f"line {at}: trajectopy's #fields header after the first row (line "
                f"{head.first_line}); trajectopy takes the last for every row: move it above them"
            )
            return replace(header, quaternion=None, columns=None, problem=problem)
    lines = data[:start].decode("utf-8-sig", errors="replace").split("\n")
    before = [(k, t) for k, t in enumerate(lines, start=1) if t.strip(" \t,").startswith("#")]
    return _trajectopy_time([*before, *later], replace(header, stamp_shift_s=0.0))


def _header(line: int, names: tuple[str, ...]) -> TableHeader:
    if names and _FIELDS_LINE.match(names[0]):  # trajectopy's `#fields t,l,px,...`
        return _trajectopy_header(line, names)
    typed = _cnspy_typed(line, names)
    if typed is not None:
        return typed
    if names != _CNSPY_POSE and len(set(names)) == len(names):
        # cnspy's, read by name as it reads them (its format is the set of names)
        for covariance, cells in (((), ()), *_CNSPY_COVARIANCE.values()):
            if set(names) == {*_CNSPY_POSE, *covariance}:
                columns = tuple(names.index(n) for n in (*_CNSPY_POSE, *covariance))
                return TableHeader(
                    line=line, names=names, quaternion="xyzw", columns=columns,
                    covariance=cells or None,
                )  # fmt: skip
    where: dict[str, int] = {}
    for i, name in enumerate(names):
        part = _component(name)
        if part is not None and part not in where:
            where[part] = i
    if len(where) < 4:
        return TableHeader(line=line, names=names, quaternion=None)
    x, y, z, w = (where[c] for c in "xyzw")
    if (x, y, z, w) == (4, 5, 6, 7):
        return TableHeader(line=line, names=names, quaternion="xyzw")
    if (w, x, y, z) == (4, 5, 6, 7):
        return TableHeader(line=line, names=names, quaternion="wxyz")
    shown = ", ".join(f"{names[where[c]]} (column {where[c] + 1})" for c in "xyzw")
    problem = (
        f"line {line}: the header names the quaternion {shown}; the readers take x, y, z, w "
        "(TUM) or w, x, y, z (EuRoC) in columns 5-8: reorder the columns"
    )
    return TableHeader(line=line, names=names, quaternion=None, problem=problem)


def _head(lines: list[str], *, source: str, rows: int) -> TextHead:
    comments: list[tuple[int, str]] = []
    header: TableHeader | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r")
        stripped = line.strip(" \t,")
        if not stripped:
            continue
        if stripped.startswith("#"):
            comments.append((number, line))
            continue
        if header is None:
            _delimited(comments, lines, number)  # trajectopy's `#delimiter ';'`
            _dated(comments, lines, number, source=source)  # its `#time_format datetime`
            line = lines[number - 1].rstrip("\r")
        fields = _fields(line)
        if not fields:
            continue
        if header is None and is_header_word(fields[0]):
            header = _header(number, _names(line))
            continue
        if header is None:  # trajectopy's `#fields` line
            header = _trajectopy_line(comments, len(fields))
        if header is None:  # cnspy's header with its error definition
            header = _cnspy_error_line(comments, len(fields))
        if header is None:  # the last # comment naming as many columns as the data
            for at, comment in reversed(comments):
                names = _names(comment)
                if len(names) == len(fields):
                    header = _header(at, names)
                    break
        if "\r" in line:  # a line break written as CR alone: two lines read as one
            return TextHead(
                source=source, columns=len(fields), separator=_separator(line),
                first_line=number, header=header, numbers=np.empty((0, len(fields))),
                bad=lone_cr(line, number, f"{len(fields)} field{'s' * (len(fields) != 1)}"),
            )  # fmt: skip
        return _rows(lines, number, fields, _separator(line), header, source=source, rows=rows)
    return TextHead(
        source=source, columns=0, separator="space", first_line=0, header=header,
        numbers=np.empty((0, 0)),
    )  # fmt: skip


def _rows(
    lines: list[str],
    first: int,
    fields: list[str],
    separator: str,
    header: TableHeader | None,
    *,
    source: str,
    rows: int,
) -> TextHead:
    """Read the numbers of up to ``rows`` rows from line ``first`` on, while they are numbers."""
    width = len(fields)
    for col, token in enumerate(fields, start=1):
        if NUMBER_TOKEN.fullmatch(token) is None:
            bad = (
                f"line {first}, column {col}: {shown_token(token)} is not a number"
                f"{non_ascii_note(token)}"
            )
            return TextHead(
                source=source, columns=width, separator=separator, first_line=first,
                header=header, numbers=np.empty((0, width)), bad=bad,
            )  # fmt: skip
    # The rows of ``width`` numbers up to the first other one, blank lines between them
    # skipped: one match over the text, not a Python loop per row (every text file is
    # sniffed twice, to detect and to read: the loop was 30% of a 200-run report's
    # profile; benchmarks/bench_report.py --runs).
    text = "\n".join(lines[first - 1 :]) + "\n"
    block = re.match(_row_block(width, rows), text)
    assert block is not None  # noqa: S101 - line ``first`` is such a row, checked above
    tokens = _COMMENT.sub("", block.group()).replace(",", " ").split()
    return TextHead(
        source=source, columns=width, separator=separator, first_line=first, header=header,
        numbers=np.array(list(map(float, tokens)), dtype=np.float64).reshape(-1, width),
    )  # fmt: skip


def _row_block(width: int, rows: int) -> str:
    """Return the pattern of 1 to ``rows`` lines of ``width`` numbers.

    A line is split as :func:`_fields` splits it: cut at ``#``, split at commas and
    blanks; a line with no field is skipped.
    """
    sep, number, comment = r"(?:[^\S\n]|,)", f"(?:{NUMBER_TOKEN.pattern})", r"(?:#[^\n]*)?\n"
    row = f"{sep}*{number}(?:{sep}+{number}){{{width - 1}}}{sep}*{comment}"
    return f"(?:{row}(?:{sep}*{comment})*){{1,{max(rows, 1)}}}"


def check_header(head: TextHead) -> None:
    """Raise the header's problem (quaternion columns no reader takes), if it has one."""
    if head.header is not None and head.header.problem:
        msg = f"{head.source}, {head.header.problem}"
        raise FormatError(msg)


def _integral(stamps: Float64Array) -> bool:
    return bool(np.all(np.floor(stamps) == stamps))


def _mean_step(stamps: Float64Array) -> float | None:
    """Return the mean step (span / intervals), in the stamps' own unit; None below 2 stamps."""
    if stamps.shape[0] < 2:
        return None
    step = float(np.abs(stamps[-1] - stamps[0])) / (stamps.shape[0] - 1)
    return step if step > 0 else None


def _finite(stamps: Float64Array) -> Float64Array:
    values = np.asarray(stamps, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):  # inf or NaN: the mask decides
        if np.isfinite(values.sum()):
            return values
    kept: Float64Array = values[np.isfinite(values)]
    return kept


def nanosecond_evidence(stamps: Float64Array) -> str | None:
    """Why stamps meant as seconds look like integer nanoseconds; None when they do not.

    Parameters
    ----------
    stamps : ndarray, shape (N,), float64
        The stamp column as written (NaN and inf are ignored).

    Examples
    --------
    >>> nanosecond_evidence(np.array([1305031102160407000.0, 1305031102194330000.0]))
    'integer stamps up to 1.31e+18: 1e12 or more, 31,700 years as seconds'
    >>> nanosecond_evidence(np.array([0.0, 5e6, 1e7]))
    'integer stamps 5e+06 apart on average: as seconds 2e-07 Hz, as nanoseconds 200 Hz'
    >>> nanosecond_evidence(np.array([1305031102.160407, 1305031102.19433])) is None
    True
    """
    values = _finite(stamps)
    if values.size == 0:
        return None
    # The cheap tests first (two passes, no new array); the integer test only if they say so.
    top = max(float(values.max()), -float(values.min()))
    if top >= NS_MAGNITUDE:
        if not _integral(values):
            return None
        return f"integer stamps up to {top:.3g}: 1e12 or more, 31,700 years as seconds"
    step = _mean_step(values)
    if step is not None and 1.0 / step < MIN_RATE_HZ <= 1e9 / step <= MAX_RATE_HZ:
        if not _integral(values):
            return None
        return (
            f"integer stamps {step:.3g} apart on average: as seconds {1 / step:.3g} Hz, "
            f"as nanoseconds {1e9 / step:.3g} Hz"
        )
    return None


def integer_stamp_unit(stamps: Float64Array) -> tuple[str, float, str]:
    """Return the unit of integer stamps that are not seconds, its divisor, and why not ns.

    For stamps :func:`nanosecond_evidence` finds, two rules in turn:

    1. Unix time: stamps that read as a date from 2000 to 2100
       (:data:`UNIX_SECONDS`) in exactly one of nanoseconds, microseconds and
       milliseconds are in that unit, whatever their rate.
    2. Otherwise (a clock since boot, a relative time), nanoseconds unless their rate as
       nanoseconds is above :data:`MAX_POSE_RATE_HZ`; then microseconds, then
       milliseconds: the first unit that gives a pose rate a trajectory has.

    WHY: Unix microseconds (1.3e15 in 2011) were read as nanoseconds, the whole run
    squeezed into 27 ms and 15 days after 1970; the doctor then advised a spatial
    matching that gave a plausible, wrong APE. The rate alone still misread a 10 Hz
    file of microseconds (1 kHz as nanoseconds) or a keyframe file (a review): the date
    decides first.

    Returns
    -------
    tuple of (str, float, str)
        The unit's name, its divisor to seconds, and ``""`` or why not nanoseconds.

    Examples
    --------
    >>> integer_stamp_unit(np.array([1305031102160407000.0, 1305031102194330000.0]))[:2]
    ('nanoseconds', 1000000000.0)
    >>> integer_stamp_unit(np.array([1305031102160407.0, 1305031102194330.0]))
    ('microseconds', 1000000.0, 'as microseconds a date in 2011')
    >>> integer_stamp_unit(np.array([1305031102160.0, 1305031103160.0]))[:2]  # 1 Hz
    ('milliseconds', 1000.0)
    >>> integer_stamp_unit(np.array([0.0, 3.3e13]))[:2]  # 9 h since boot, as nanoseconds
    ('nanoseconds', 1000000000.0)
    """
    values = _finite(stamps)
    dated = dated_unit(values)
    if dated is not None:
        name, divisor, year = dated
        why = "" if divisor == 1e9 else f"as {name} a date in {year}"
        return name, divisor, why
    step = _mean_step(values)
    if step is None:
        return "nanoseconds", 1e9, ""
    for name, divisor in _UNIT_DIVISORS:
        if divisor / step <= MAX_POSE_RATE_HZ:
            why = "" if divisor == 1e9 else f"as nanoseconds {1e9 / step:.3g} Hz"
            return name, divisor, why
    return "nanoseconds", 1e9, ""


def dated_unit(stamps: Float64Array) -> tuple[str, float, int] | None:
    """Return the one unit in which ``stamps`` are a Unix date, its divisor and the year.

    The units are nanoseconds, microseconds and milliseconds; the dates those from
    :data:`UNIX_SECONDS`. None when no unit or more than one gives such a date (NaN and
    inf are ignored).

    Examples
    --------
    >>> dated_unit(np.array([1.6e15, 1.6e15 + 1e5]))
    ('microseconds', 1000000.0, 2020)
    >>> dated_unit(np.array([0.0, 3.3e13])) is None
    True
    """
    values = _finite(stamps)
    if not values.size:
        return None
    low, high = float(values.min()), float(values.max())
    dated = [
        (name, divisor, _utc_year(low / divisor))
        for name, divisor in _UNIT_DIVISORS
        if UNIX_SECONDS[0] <= low / divisor and high / divisor <= UNIX_SECONDS[1]
    ]
    return dated[0] if len(dated) == 1 else None


def _utc_year(seconds: float) -> int:
    """Return the calendar year (UTC) of a Unix time in seconds.

    WHY not ``1970 + seconds // 31_556_952`` (the mean Gregorian year): it is off by one
    near New Year, 2000-01-01 00:00 being said to be in 1999 and 2099-12-31 in 2100 (a
    review).
    """
    return datetime.fromtimestamp(seconds, tz=timezone.utc).year


def stated_ns_unit(stamps: Float64Array) -> tuple[str, float, str]:
    """Return the unit of integer stamps stated as nanoseconds, its divisor, and what to say.

    The one rule for stamps a header (``#timestamp [ns]``, ``# t[ns]``) or the format
    (EuRoC) states as nanoseconds. They are believed, and nothing is said, unless as
    nanoseconds they fall in 1970 while in exactly one coarser unit they are a Unix date
    (:func:`dated_unit`). Then both readings are said, and:

    1. As nanoseconds above :data:`MAX_POSE_RATE_HZ`: read in that unit (Unix
       microseconds at 100 Hz are 100 kHz as nanoseconds).
    2. Otherwise read as nanoseconds, as stated: the rate cannot tell a clock since boot
       in nanoseconds at a pose rate from Unix time in a unit 1000 times coarser at a
       rate 1000 times lower (Unix microseconds at 10 Hz are 10 kHz as nanoseconds).
       Nothing is said where the coarser unit's rate is below :data:`MIN_POSE_RATE_HZ`:
       then the rate does tell (nanoseconds 30 minutes after boot at 100 Hz are 1e-4 Hz
       as milliseconds).

    WHY: the date alone overruled real nanoseconds since boot (a 100 Hz recording 20
    minutes after boot, under ``# t[ns]``, read as milliseconds in 2008 at 1e-4 Hz); the
    rate alone read 1.6e15 under ``#timestamp [ns]`` as 18.5 days after 1970 began
    without a word, and Unix microseconds at 10 Hz likewise.

    Returns
    -------
    tuple of (str, float, str)
        The unit's name, its divisor to seconds, and ``""`` or the clause that names
        both readings (to follow the statement of the unit: ``"but as nanoseconds ..."``).

    Examples
    --------
    >>> stated_ns_unit(np.array([1.6e15, 1.6e15 + 1e4]))[:2]  # 100 Hz as microseconds
    ('microseconds', 1000000.0)
    >>> unit, divisor, said = stated_ns_unit(np.array([1.6e15, 1.6e15 + 1e7]))
    >>> unit, said  # 100 Hz as nanoseconds # doctest: +NORMALIZE_WHITESPACE
    ('nanoseconds', 'but as nanoseconds they fall in 1970, as microseconds in 2020
    (18.5 days after 1970 began at 100 Hz, or at 0.1 Hz): the rate cannot tell a clock
    since boot from Unix time, so the statement is believed')
    >>> stated_ns_unit(np.array([1.4e18, 1.4e18 + 1e7]))
    ('nanoseconds', 1000000000.0, '')
    >>> stated_ns_unit(np.array([1.8e12, 1.8e12 + 1e7]))  # since boot: 1e-4 Hz as ms
    ('nanoseconds', 1000000000.0, '')
    """
    values = _finite(stamps)
    dated = dated_unit(values)
    if dated is None or dated[1] == 1e9:
        return "nanoseconds", 1e9, ""
    unit, divisor, year = dated
    step = _mean_step(values)
    rates = "" if step is None else f" at {1e9 / step:.3g} Hz, or at {divisor / step:.3g} Hz"
    said = (
        f"but as nanoseconds they fall in 1970, as {unit} in {year} "
        f"({_elapsed(float(values.min()) / 1e9)} after 1970 began{rates})"
    )
    if step is not None and 1e9 / step > MAX_POSE_RATE_HZ:
        return unit, divisor, said
    if step is not None and divisor / step < MIN_POSE_RATE_HZ:
        return "nanoseconds", 1e9, ""
    said += ": the rate cannot tell a clock since boot from Unix time, so the statement is believed"
    return "nanoseconds", 1e9, said


def _elapsed(seconds: float) -> str:
    """``"18.5 days"``, ``"20 minutes"``: a time in the largest unit it has 2 of."""
    for name, size in (("days", 86_400.0), ("hours", 3_600.0), ("minutes", 60.0)):
        if seconds >= 2 * size:
            return f"{seconds / size:.3g} {name}"
    return f"{seconds:.3g} s"


def seconds_evidence(stamps: Float64Array) -> tuple[str, int | None] | None:
    """Why stamps meant as integer nanoseconds look like seconds, and the row that shows it.

    Parameters
    ----------
    stamps : ndarray, shape (N,), float64
        The stamp column as written (NaN and inf are ignored).

    Returns
    -------
    tuple of (str, int or None), or None
        The reason, and the row of a stamp with a fraction (None when the reason is the
        rate); None when the stamps may well be nanoseconds.

    Examples
    --------
    >>> seconds_evidence(np.array([1403715524.0, 1403715524.907143]))
    ('stamp 1403715524.907143 has a fraction', 1)
    >>> seconds_evidence(np.array([1.0, 2.0, 3.0]))[0]
    'integer stamps 1 apart on average: as nanoseconds 1e+09 Hz, as seconds 1 Hz'
    >>> seconds_evidence(np.array([1403715524907143168.0])) is None
    True
    """
    values = np.asarray(stamps, dtype=np.float64)
    if values.size and float(values.min()) >= 2.0**53:  # every such float is an integer
        return None
    fraction = np.isfinite(values) & (np.floor(values) != values)
    if fraction.any():
        row = int(np.flatnonzero(fraction)[0])
        return f"stamp {float(values[row])!r} has a fraction", row
    values = _finite(values)
    if values.size == 0 or float(np.abs(values).max()) >= NS_MAGNITUDE:
        return None
    step = _mean_step(values)
    if step is not None and 1e9 / step > MAX_RATE_HZ >= 1.0 / step >= MIN_RATE_HZ:
        return (
            f"integer stamps {step:.3g} apart on average: as nanoseconds {1e9 / step:.3g} Hz, "
            f"as seconds {1 / step:.3g} Hz"
        ), None
    return None
