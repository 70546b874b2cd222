"""The results table: one row per run, metric and signal, every ``ErrorStats`` field a column.

Columns, in order: :data:`KEY_COLUMNS` (the run's name and keys, the metric's name, the
Comparison's metric, signal and unit, the evaluation's status and error, whether the run
succeeded and why not) then :data:`STAT_COLUMNS` (``n``, ``rms``, ``mean``, ... as in
``ErrorStats``). A run with no comparison for a metric (not evaluated, no reference, the
metric did not apply) has one row for it with an empty signal and null statistics; NaN
statistics are null too. Rows follow the manifest's order, then the settings' metric
order, then each Comparison's signal order, so the same manifest gives the same table
whichever executor ran it.

Written as it is produced by :class:`TableWriter`: Parquet (``pyarrow``, extras
``parquet`` or ``dask``) one row group of :data:`ROW_GROUP_ROWS` rows at a time, or,
without pyarrow, the same rows as CSV line by line (and the caller is told why); the
file appears whole when the writer closes (:func:`robot_msgs.files.open_atomic`), so a
sweep of any size holds at most one row group of rows. A sweep's workers write its rows
in parts (:func:`write_rows_part`: an Arrow IPC stream, or CSV lines), which the writer
takes in order (:meth:`TableWriter.append_part`) into the same row groups, so the file
has the same bytes as one written row by row.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.compare import ErrorStats
from robot_msgs.compare.run_report import parameters_text
from robot_msgs.errors import FormatError, MissingDependencyError
from robot_msgs.files import open_atomic
from robot_msgs.optional import require

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from types import TracebackType

    from typing_extensions import Self

    from robot_msgs.batch.tasks import RunResult
    from robot_msgs.compare import RunReport
    from robot_msgs.runs.run_settings import RunSettings

__all__ = [
    "COLUMNS",
    "KEY_COLUMNS",
    "ROW_GROUP_ROWS",
    "STAT_COLUMNS",
    "TableWriter",
    "read_results",
    "rows_from_results",
    "rows_of",
    "write_rows_part",
    "write_table",
]

KEY_COLUMNS = (
    "run",
    "algorithm",
    "sequence",
    "trial",
    "version",
    "parameters",
    "evaluation",
    "metric",
    "signal",
    "unit",
    "status",
    "success",
    "failure",
    "error_type",
    "error",
    "digest",
)
STAT_COLUMNS: tuple[str, ...] = tuple(ErrorStats.__dataclass_fields__)
COLUMNS = KEY_COLUMNS + STAT_COLUMNS
#: Rows held before a Parquet row group is written (a few MB of Python objects).
ROW_GROUP_ROWS = 1024

Row = dict[str, Any]


def rows_from_results(results: Sequence[RunResult], settings: RunSettings) -> list[Row]:
    """Table rows of ``results`` (already in manifest order).

    Examples
    --------
    >>> from robot_msgs.batch.tasks import RunResult
    >>> from robot_msgs.compare import Comparison, RunReport, Signal
    >>> from robot_msgs.runs import RunSettings
    >>> c = Comparison(metric="ape", signals=(Signal.of("translation", "m", [0.3, 0.4],
    ...                                                 stamps_s=[0.0, 1.0]).summary(),))
    >>> report = RunReport(name="orb/MH_01/1", success=True, comparisons={"ape:translation": c})
    >>> r = RunResult(digest="ab", name="orb/MH_01/1", algorithm="orb", sequence="MH_01",
    ...               trial="1", status="ok", report=report)
    >>> rows = rows_from_results([r], RunSettings())
    >>> [(row["evaluation"], row["signal"], row["n"]) for row in rows]
    [('ape:translation', 'translation', 2), ('rpe:translation:1s:all', '', None)]
    """
    names = [m.name for m in settings.metrics]
    return [row for result in results for row in rows_of(result, names)]


def rows_of(
    result: RunResult, names: Sequence[str], declared: RunReport | None = None
) -> list[Row]:
    """Table rows of one run: for each metric named in ``names``, one row per signal.

    ``version`` and ``parameters`` (JSON text, keys sorted, non-finite floats spelled as
    in the run's report) say the run's configuration
    (:class:`~robot_msgs.compare.Configuration`), from its report or, for a run without
    one, from ``declared`` (its ``meta.json``). WHY: a sweep's table could not be grouped
    by version or parameter, which the rankings keep apart (a review).
    """
    rows: list[Row] = []
    report = result.report
    stated = report if report is not None else declared
    head: Row = {
        "run": result.name,
        "algorithm": result.algorithm,
        "sequence": result.sequence,
        "trial": result.trial,
        "version": "" if stated is None else stated.version,
        "parameters": parameters_text({} if stated is None else stated.parameters),
    }
    tail: Row = {
        "status": result.status,
        "success": None if report is None else report.success,
        "failure": "" if report is None else report.failure,
        "error_type": result.error_type,
        "error": result.error,
        "digest": result.digest,
    }
    for name in names:
        comparison = None if report is None else report.comparisons.get(name)
        if comparison is None:
            rows.append(
                head
                | {"evaluation": name, "metric": "", "signal": "", "unit": ""}
                | tail
                | dict.fromkeys(STAT_COLUMNS)
            )
            continue
        rows.extend(
            head
            | {
                "evaluation": name,
                "metric": comparison.metric,
                "signal": signal.name,
                "unit": signal.unit,
            }
            | tail
            | {col: _null_nan(getattr(signal.stats, col)) for col in STAT_COLUMNS}
            for signal in comparison.signals
        )
    return rows


def _null_nan(value: float) -> float | None:
    """NaN statistics (no samples, no time axis) become nulls: "not available", not a number."""
    return None if isinstance(value, float) and math.isnan(value) else value


def _schema() -> Any:
    pa = require("pyarrow", "parquet", feature="Parquet results tables")
    return pa.schema(
        [(c, pa.bool_() if c == "success" else pa.string()) for c in KEY_COLUMNS]
        + [(c, pa.int64() if c == "n" else pa.float64()) for c in STAT_COLUMNS]
    )


def write_rows_part(rows: Sequence[Row], path: str | Path, *, arrow: bool) -> None:
    """Write rows as one part of a table: an Arrow IPC stream, or CSV lines (no header).

    Raises
    ------
    MissingDependencyError
        ``arrow`` without pyarrow.
    OSError
        The part cannot be written.
    """
    target = Path(path)
    if not arrow:
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        for row in rows:
            writer.writerow([_csv_cell(row[c]) for c in COLUMNS])
        target.write_bytes(text.getvalue().encode("utf-8"))
        return
    pa = require("pyarrow", "parquet", feature="Parquet results tables")
    table = pa.table({c: [row[c] for row in rows] for c in COLUMNS}, schema=_schema())
    with pa.OSFile(str(target), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as out:
        out.write_table(table)


class TableWriter:
    """Write the results table as rows come: ``OUT/results.parquet``, or ``results.csv``.

    Use as a context manager; :meth:`write` takes a run's rows (:func:`rows_from_results`
    order). ``path`` is the file written and ``note`` says why it is CSV (empty for
    Parquet). Nothing appears at ``path`` unless the block ends without an error.

    Raises
    ------
    OutputExistsError
        The table exists and ``force`` is false (raised on entering).

    Examples
    --------
    >>> import tempfile
    >>> with TableWriter(tempfile.mkdtemp()) as table:
    ...     table.write([])
    >>> table.path.name, table.rows
    ('results.parquet', 0)
    """

    def __init__(self, out: str | Path, *, force: bool = False) -> None:
        folder = Path(out)
        try:
            self._schema: Any = _schema()
        except MissingDependencyError as err:
            self._schema = None
            self.path = folder / "results.csv"
            self.note = f"wrote CSV instead of Parquet: {err}"
        else:
            self.path = folder / "results.parquet"
            self.note = ""
        self.force = force
        self.rows = 0
        self._stack = contextlib.ExitStack()
        self._columns: dict[str, list[Any]] = {c: [] for c in COLUMNS}
        self._parquet: Any = None
        self._csv: Any = None
        self._handle: Any = None
        self._text: Any = None
        self._tail: Any = None  # rows of parts not yet in a row group (an Arrow table)

    def __enter__(self) -> Self:
        handle = self._stack.enter_context(open_atomic(self.path, force=self.force))
        self._handle = handle
        if self._schema is not None:
            pq = require("pyarrow.parquet", "parquet", feature="Parquet results tables")
            self._parquet = pq.ParquetWriter(handle, self._schema)
            self._stack.callback(self._parquet.close)
        else:
            text = io.TextIOWrapper(handle, encoding="utf-8", newline="")
            self._stack.callback(text.detach)
            self._stack.callback(text.flush)
            self._text = text
            self._csv = csv.writer(text, lineterminator="\n")
            self._csv.writerow(COLUMNS)
        return self

    @property
    def part_format(self) -> str:
        """The format of the parts this writer takes: ``arrow``, or ``csv`` without pyarrow."""
        return "csv" if self._schema is None else "arrow"

    def append_part(self, path: str | Path, *, rows: int) -> None:
        """Add the ``rows`` rows of a part (:func:`write_rows_part` in :attr:`part_format`).

        Parquet keeps row groups of :data:`ROW_GROUP_ROWS` rows across parts.

        Raises
        ------
        FormatError
            An Arrow part that does not hold ``rows`` rows.
        """
        source = Path(path)
        self.rows += rows
        if self._csv is not None:
            self._text.flush()
            with source.open("rb") as part:
                shutil.copyfileobj(part, self._handle)
            return
        pa = require("pyarrow", "parquet", feature="Parquet results tables")
        with pa.OSFile(str(source), "rb") as part:
            table = pa.ipc.open_stream(part).read_all()
        if table.num_rows != rows:
            msg = f"{source}: expected a part of {rows} rows, got {table.num_rows}"
            raise FormatError(msg)
        if self._columns["run"]:  # rows given to write() first
            table = pa.concat_tables([pa.table(self._columns, schema=self._schema), table])
            self._columns = {c: [] for c in COLUMNS}
        if self._tail is not None:
            table = pa.concat_tables([self._tail, table])
        whole = table.num_rows // ROW_GROUP_ROWS * ROW_GROUP_ROWS
        for start in range(0, whole, ROW_GROUP_ROWS):
            self._parquet.write_table(table.slice(start, ROW_GROUP_ROWS))
        self._tail = table.slice(whole) if whole < table.num_rows else None

    def write(self, rows: Iterable[Row]) -> None:
        """Add rows (a run's, in table order)."""
        for row in rows:
            self.rows += 1
            if self._csv is not None:
                self._csv.writerow([_csv_cell(row[c]) for c in COLUMNS])
                continue
            for column, values in self._columns.items():
                values.append(row[column])
            if len(self._columns["run"]) >= ROW_GROUP_ROWS:
                self._flush()

    def _flush(self) -> None:
        if self._tail is not None:
            self._parquet.write_table(self._tail)
            self._tail = None
        if self._parquet is None or not self._columns["run"]:
            return
        pa = require("pyarrow", "parquet", feature="Parquet results tables")
        self._parquet.write_table(pa.table(self._columns, schema=self._schema))
        self._columns = {c: [] for c in COLUMNS}

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc is None:
            self._flush()
        self._stack.__exit__(exc_type, exc, tb)


def write_table(rows: Sequence[Row], out: str | Path, *, force: bool = False) -> tuple[Path, str]:
    """Write ``rows`` as ``out/results.parquet``, or ``out/results.csv`` without pyarrow.

    Returns
    -------
    (Path, str)
        The file written and a note for the user (empty, or why CSV was written).

    Raises
    ------
    OutputExistsError
        The table exists and ``force`` is false.
    """
    with TableWriter(out, force=force) as table:
        table.write(rows)
    return table.path, table.note


def _csv_cell(value: Any) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return repr(value) if isinstance(value, float) else value


def read_results(path: str | Path) -> list[Row]:
    """Rows of a results table written by :func:`write_table` (Parquet or CSV).

    Missing statistics come back as ``None`` from Parquet and CSV alike. The file is
    read bounded as every input (``max_bytes``, :mod:`robot_msgs.limits`).

    Raises
    ------
    FormatError
        No such file, not a readable Parquet file or UTF-8 CSV, columns other than
        :data:`COLUMNS`, or a CSV cell that is not what its column holds (the line and
        column named). WHY: a broken table escaped as pyarrow's ``ArrowInvalid``, or
        Python's ``ValueError``, ``TypeError`` or ``UnicodeDecodeError``; a folder
        (``write_table``'s ``out``) said ``[Errno 21] out: is a directory``.
    """
    from robot_msgs.io.bounded import named_open_error, read_input  # noqa: PLC0415
    from robot_msgs.limits import current_limits  # noqa: PLC0415

    source = Path(path)
    try:
        data = read_input(source, limit=current_limits().max_bytes)
    except (FileNotFoundError, IsADirectoryError) as err:
        # a folder: the one write_table was given, whose table is named
        inside = [source / f"results{s}" for s in (".parquet", ".csv")]
        found = next((f" (give {p}, the table in it)" for p in inside if p.is_file()), "")
        named = named_open_error(err, str(source), what=f"a results table{found}")
        raise FormatError(str(named)) from err
    except OSError as err:  # no permission: read_input's message names the file
        # WHY: str() said "[Errno 13] ..."; strerror alone lost the file of os.open's own
        # errors ("File name too long", "Too many levels of symbolic links").
        said = err.strerror or str(err)
        msg = said if said.startswith(f"{source}:") else f"{source}: {said}"
        raise FormatError(msg) from err
    if source.suffix == ".parquet":
        pa = require("pyarrow", "parquet", feature="Parquet results tables")
        pq = require("pyarrow.parquet", "parquet", feature="Parquet results tables")
        try:
            table = pq.read_table(pa.BufferReader(data))
        except Exception as err:  # pyarrow raises its own ArrowInvalid / OSError types
            msg = f"{source}: not a readable Parquet file ({err})"
            raise FormatError(msg) from err
        if tuple(table.column_names) != COLUMNS:
            msg = f"{source}: expected the columns {', '.join(COLUMNS)}, got {table.column_names}"
            raise FormatError(msg)
        rows: list[Row] = table.to_pylist()
        return rows
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        msg = f"{source}: expected UTF-8 text, got undecodable bytes"
        raise FormatError(msg) from err
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        return _csv_rows(reader, source)
    except csv.Error as err:  # WHY: a cell past csv's 131 072 characters escaped as csv.Error
        msg = f"{source}:{reader.line_num + 1}: not a results CSV row ({err})"  # the line read
        raise FormatError(msg) from err


def _csv_rows(reader: csv.DictReader[str], source: Path) -> list[Row]:
    """Read the rows of a results CSV, each statistic as its number (``None`` when empty)."""
    if tuple(reader.fieldnames or ()) != COLUMNS:
        msg = f"{source}: expected the columns {', '.join(COLUMNS)}, got {reader.fieldnames}"
        raise FormatError(msg)
    out = []
    for row in reader:
        where = f"{source}:{reader.line_num}"
        if None in row or None in row.values():  # more cells than columns, or fewer
            cells = len(COLUMNS) + len(row.get(None) or ()) - sum(v is None for v in row.values())
            msg = f"{where}: expected {len(COLUMNS)} cells, got {cells}"
            raise FormatError(msg)
        typed: Row = dict(row)
        typed["success"] = {"True": True, "False": False}.get(row["success"])
        for col in STAT_COLUMNS:
            typed[col] = _stat_cell(row[col], col, where)
        out.append(typed)
    return out


def _stat_cell(cell: str, column: str, where: str) -> int | float | None:
    """Read a statistic's CSV cell as its number (``None`` when empty), naming it if not one."""
    if cell == "":
        return None
    try:
        return int(cell) if column == "n" else float(cell)
    except ValueError as err:
        kind = "a whole number" if column == "n" else "a number"
        msg = f"{where}: column `{column}`: expected {kind}, got {cell!r:.60}"
        raise FormatError(msg) from err
