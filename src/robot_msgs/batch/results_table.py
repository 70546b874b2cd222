"""The results table: one row per run, metric and signal, every ``ErrorStats`` field a column.

Columns, in order: :data:`KEY_COLUMNS` (the run's name and keys, the metric's name, the
Comparison's metric, signal and unit, the evaluation's status and error, whether the run
succeeded and why not) then :data:`STAT_COLUMNS` (``n``, ``rms``, ``mean``, ... as in
``ErrorStats``). A run with no comparison for a metric (not evaluated, no reference, the
metric did not apply) has one row for it with an empty signal and null statistics; NaN
statistics are null too. Rows follow the manifest's order, then the settings' metric
order, then each Comparison's signal order, so the same manifest gives the same table
whichever executor ran it.

Written as Parquet (``pyarrow``, extras ``parquet`` or ``dask``); without pyarrow the
same rows go to CSV and the caller is told why.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robot_msgs.compare import ErrorStats
from robot_msgs.errors import FormatError, MissingDependencyError
from robot_msgs.files import write_atomic
from robot_msgs.optional import require

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.batch.tasks import RunResult
    from robot_msgs.runs.run_settings import RunSettings

__all__ = [
    "COLUMNS",
    "KEY_COLUMNS",
    "STAT_COLUMNS",
    "read_results",
    "rows_from_results",
    "write_table",
]

KEY_COLUMNS = (
    "run",
    "algorithm",
    "sequence",
    "trial",
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

Row = dict[str, Any]


def rows_from_results(results: Sequence[RunResult], settings: RunSettings) -> list[Row]:
    """Table rows of ``results`` (already in manifest order).

    Examples
    --------
    >>> from robot_msgs.batch.tasks import RunResult
    >>> from robot_msgs.compare import Comparison, RunReport, error_stats
    >>> from robot_msgs.runs import RunSettings
    >>> c = Comparison(metric="ape", stats={"translation": error_stats([0.3, 0.4])},
    ...                units={"translation": "m"})
    >>> report = RunReport(name="orb/MH_01/1", success=True, comparisons={"ape:translation": c})
    >>> r = RunResult(digest="ab", name="orb/MH_01/1", algorithm="orb", sequence="MH_01",
    ...               trial="1", status="ok", report=report)
    >>> rows = rows_from_results([r], RunSettings())
    >>> [(row["evaluation"], row["signal"], row["n"]) for row in rows]
    [('ape:translation', 'translation', 2), ('rpe:translation:1s:all', '', None)]
    """
    names = [m.name for m in settings.metrics]
    rows: list[Row] = []
    for result in results:
        report = result.report
        head: Row = {
            "run": result.name,
            "algorithm": result.algorithm,
            "sequence": result.sequence,
            "trial": result.trial,
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
            for signal, stats in comparison.stats.items():
                rows.append(
                    head
                    | {
                        "evaluation": name,
                        "metric": comparison.metric,
                        "signal": signal,
                        "unit": comparison.units[signal],
                    }
                    | tail
                    | {col: _null_nan(getattr(stats, col)) for col in STAT_COLUMNS}
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
    folder = Path(out)
    try:
        schema = _schema()
    except MissingDependencyError as err:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_cell(v) for k, v in row.items()})
        path = write_atomic(folder / "results.csv", buffer.getvalue(), force=force)
        return path, f"wrote CSV instead of Parquet: {err}"
    pa = require("pyarrow", "parquet", feature="Parquet results tables")
    pq = require("pyarrow.parquet", "parquet", feature="Parquet results tables")
    table = pa.Table.from_pylist(list(rows), schema=schema)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    data = sink.getvalue().to_pybytes()
    return write_atomic(folder / "results.parquet", data, force=force), ""


def _csv_cell(value: Any) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return repr(value) if isinstance(value, float) else value


def read_results(path: str | Path) -> list[Row]:
    """Rows of a results table written by :func:`write_table` (Parquet or CSV).

    Missing statistics come back as ``None`` from Parquet and CSV alike.

    Raises
    ------
    FormatError
        A CSV whose header is not :data:`COLUMNS`.
    """
    source = Path(path)
    if source.suffix == ".parquet":
        pq = require("pyarrow.parquet", "parquet", feature="Parquet results tables")
        rows: list[Row] = pq.read_table(source).to_pylist()
        return rows
    with source.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            msg = f"{source}: expected the columns {', '.join(COLUMNS)}, got {reader.fieldnames}"
            raise FormatError(msg)
        out = []
        for row in reader:
            typed: Row = dict(row)
            typed["success"] = {"True": True, "False": False}.get(row["success"])
            for col in STAT_COLUMNS:
                cell = row[col]
                typed[col] = None if cell == "" else (int(cell) if col == "n" else float(cell))
            out.append(typed)
    return out
