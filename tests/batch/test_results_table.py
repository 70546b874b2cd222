"""The results table: rows per run, metric and signal; Parquet, or CSV without pyarrow."""

from __future__ import annotations

import math
import re
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from robot_msgs.batch import results_table
from robot_msgs.batch.results_table import (
    COLUMNS,
    KEY_COLUMNS,
    STAT_COLUMNS,
    TableWriter,
    read_results,
    rows_from_results,
    rows_of,
    write_table,
)
from robot_msgs.batch.tasks import RunResult
from robot_msgs.compare import ErrorStats, RunReport, error_stats
from robot_msgs.errors import FormatError, OutputExistsError
from robot_msgs.runs import RunSettings
from tests.compare.comparisons import comparison

if TYPE_CHECKING:
    from pathlib import Path

SETTINGS = RunSettings.from_options(
    {"evaluate": [{"metric": "ape"}, {"metric": "rpe", "relation": "translation", "delta": 1}]},
    where="test [settings]",
)
METRICS = ("ape:translation", "rpe:translation:1f")


def _report(trial: str, **fields: object) -> RunReport:
    ape = comparison(
        metric="ape",
        stats={"x": error_stats([0.3, -0.4], [0.0, 1.0]), "y": error_stats([0.0])},
        units={"x": "m", "y": "m"},
    )
    rpe = comparison(
        metric="rpe", stats={"translation": error_stats([])}, units={"translation": "m"}
    )
    values: dict[str, object] = {
        "name": f"orb/MH_01/{trial}", "success": True, "algorithm": "orb", "sequence": "MH_01",
        "trial": trial, "comparisons": dict(zip(METRICS, (ape, rpe), strict=True)),
    }  # fmt: skip
    return RunReport(**(values | fields))  # type: ignore[arg-type]


def _ok(trial: str, **fields: object) -> RunResult:
    return RunResult(
        digest=f"d{trial}", name=f"orb/MH_01/{trial}", algorithm="orb", sequence="MH_01",
        trial=trial, status="ok", report=_report(trial, **fields),
    )  # fmt: skip


FAILED = RunResult(
    digest="dbad", name="vins-1", algorithm="vins", sequence="MH_01", trial="1",
    status="failed", error_type="FormatError", error="e.tum:3: expected 8 columns, got 7",
)  # fmt: skip


def test_settings_name_the_two_metrics_of_the_table() -> None:
    assert tuple(m.name for m in SETTINGS.metrics) == METRICS


def test_rows_hold_every_error_stats_field_per_signal() -> None:
    rows = rows_from_results([_ok("1")], SETTINGS)
    assert [(r["run"], r["evaluation"], r["metric"], r["signal"]) for r in rows] == [
        ("orb/MH_01/1", "ape:translation", "ape", "x"),
        ("orb/MH_01/1", "ape:translation", "ape", "y"),
        ("orb/MH_01/1", "rpe:translation:1f", "rpe", "translation"),
    ]
    x = rows[0]
    assert list(x) == list(COLUMNS)
    assert COLUMNS[:4] == ("run", "algorithm", "sequence", "trial")
    assert tuple(ErrorStats.__dataclass_fields__) == STAT_COLUMNS
    # By hand: errors 0.3 and -0.4 give rms sqrt((0.09 + 0.16) / 2), mean -0.05, and with
    # times 0 and 1 the trapezoid of |e|: (0.3 + 0.4) * 1 / 2.
    assert x["rms"] == pytest.approx((0.25 / 2) ** 0.5)
    assert x["mean"] == pytest.approx(-0.05)
    assert x["iae"] == pytest.approx((0.3 + 0.4) / 2)
    assert rows[1]["iae"] is None  # NaN (no time axis) is null
    assert rows[2]["n"] == 0
    assert rows[2]["rms"] is None
    assert (x["status"], x["success"], x["failure"], x["error"]) == ("ok", True, "", "")
    assert x["digest"] == "d1"
    assert (x["version"], x["parameters"]) == ("", "{}")


def test_rows_say_the_runs_version_and_parameters() -> None:
    """A sweep's table could not be grouped by version or parameter (a review)."""
    ok = _ok("1")
    assert ok.report is not None
    stated = ok.report.replace(version="2.0", parameters={"x": math.nan, "n": 1000})
    [row, *_] = rows_from_results([replace(ok, report=stated)], SETTINGS)
    assert (row["version"], row["parameters"]) == ("2.0", '{"n":1000,"x":"NaN"}')
    [failed, *_] = rows_of(FAILED, [m.name for m in SETTINGS.metrics], declared=stated)
    assert (failed["version"], failed["parameters"]) == ("2.0", '{"n":1000,"x":"NaN"}')


def test_a_run_that_could_not_be_evaluated_has_one_null_row_per_metric_with_its_error() -> None:
    rows = rows_from_results([FAILED], SETTINGS)
    assert [(r["run"], r["evaluation"], r["signal"]) for r in rows] == [
        ("vins-1", "ape:translation", ""),
        ("vins-1", "rpe:translation:1f", ""),
    ]
    assert (rows[0]["status"], rows[0]["success"], rows[0]["failure"]) == ("failed", None, "")
    assert rows[0]["error_type"] == "FormatError"
    assert rows[0]["error"] == "e.tum:3: expected 8 columns, got 7"
    assert all(rows[0][c] is None for c in STAT_COLUMNS)


def test_a_run_that_failed_as_a_run_keeps_its_numbers_and_says_why() -> None:
    [ape_x, _, _] = rows_from_results([_ok("2", success=False, failure="exit code -11")], SETTINGS)
    assert (ape_x["status"], ape_x["success"], ape_x["failure"]) == ("ok", False, "exit code -11")
    assert ape_x["rms"] == pytest.approx((0.25 / 2) ** 0.5)


def test_a_run_without_a_reference_is_a_success_with_null_statistics() -> None:
    rows = rows_from_results([_ok("3", comparisons={})], SETTINGS)
    assert [(r["evaluation"], r["metric"], r["signal"], r["success"]) for r in rows] == [
        ("ape:translation", "", "", True),
        ("rpe:translation:1f", "", "", True),
    ]
    assert all(row[c] is None for row in rows for c in STAT_COLUMNS)


def test_parquet_round_trip_keeps_every_value(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    rows = rows_from_results([_ok("1"), _ok("2", success=False, failure="lost"), FAILED], SETTINGS)
    path, note = write_table(rows, tmp_path)
    assert (path.name, note) == ("results.parquet", "")
    assert read_results(path) == rows
    with pytest.raises(OutputExistsError, match=r"results\.parquet exists"):
        write_table(rows, tmp_path)


def test_without_pyarrow_the_table_is_csv_and_the_note_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    rows = rows_from_results([_ok("1"), _ok("2", success=False, failure="lost"), FAILED], SETTINGS)
    path, note = write_table(rows, tmp_path)
    assert path.name == "results.csv"
    assert "wrote CSV instead of Parquet" in note
    assert "pip install 'robot_msgs[parquet]'" in note
    assert path.read_text().splitlines()[0] == ",".join(COLUMNS)
    assert read_results(path) == rows  # success back as True / False / None, stats as numbers


def test_reading_a_csv_with_other_columns_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text("a,b\n1,2\n")
    expected = ", ".join(KEY_COLUMNS[:3])
    with pytest.raises(FormatError, match=rf"results.csv: expected the columns {expected}"):
        read_results(path)


def _csv_with(cells: dict[str, str]) -> str:
    row = dict.fromkeys(COLUMNS, "") | cells
    return ",".join(COLUMNS) + "\n" + ",".join(row.values()) + "\n"


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [  # each escaped as Python's or pyarrow's own error (the law: robot_msgs' errors only)
        (
            "results.csv",
            _csv_with({"run": "a", "n": "x"}).encode(),
            r"results\.csv:2: column `n`: expected a whole number, got 'x'",
        ),  # ValueError
        (
            "results.csv",
            _csv_with({"run": "a", "rms": "abc"}).encode(),
            r"results\.csv:2: column `rms`: expected a number, got 'abc'",
        ),  # ValueError
        (
            "results.csv",
            (",".join(COLUMNS) + "\nonly,two\n").encode(),
            rf"results\.csv:2: expected {len(COLUMNS)} cells, got 2",
        ),  # TypeError
        (
            "results.csv",
            (",".join(COLUMNS) + "\n").encode() + b"\xff\n",
            r"results\.csv: expected UTF-8 text",
        ),  # UnicodeDecodeError
        (
            "results.parquet",
            b"PAR1 not really",
            r"results\.parquet: not a readable Parquet file",
        ),  # pyarrow's ArrowInvalid
    ],
)
def test_reading_a_broken_table_is_a_format_error_naming_it(
    tmp_path: Path, name: str, content: bytes, error: str
) -> None:
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(FormatError, match=error):
        read_results(path)


def test_reading_a_csv_cell_past_the_csv_module_s_limit_is_a_format_error(
    tmp_path: Path,
) -> None:
    """A cell of more than 131 072 characters (csv's field limit) escaped as ``csv.Error``."""
    path = tmp_path / "results.csv"
    path.write_text(_csv_with({"run": "a", "error": "x" * 200_000}))
    with pytest.raises(FormatError, match=r"results\.csv:2: not a results CSV row \(field larger"):
        read_results(path)
    path.write_text("run," + "x" * 200_000 + "\n")  # in the header
    with pytest.raises(FormatError, match=r"results\.csv:1: not a results CSV row"):
        read_results(path)


def test_reading_a_folder_says_so_and_names_the_table_in_it(tmp_path: Path) -> None:
    # read_results(folder) said "[Errno 21] ...: is a directory"; the folder is the one
    # write_table was given, so the table written in it is named.
    with pytest.raises(FormatError, match=r"^\S+: is a directory, not a results table$"):
        read_results(tmp_path)
    path, _ = write_table(rows_from_results([_ok("a")], SETTINGS), tmp_path)
    said = rf"is a directory, not a results table \(give {re.escape(str(path))}, the table in it\)$"
    with pytest.raises(FormatError, match=said):
        read_results(tmp_path)


def test_an_open_error_names_the_table(tmp_path: Path) -> None:
    # os.open's own errors carry the path only in their filename: their strerror alone
    # said "File name too long", no file named.
    path = tmp_path / f"{'x' * 300}.csv"  # past NAME_MAX (255): ENAMETOOLONG
    with pytest.raises(FormatError, match=rf"^{re.escape(str(path))}: \S"):
        read_results(path)


def test_reading_a_missing_or_foreign_table_is_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"nope\.csv: no such file"):  # FileNotFoundError
        read_results(tmp_path / "nope.csv")
    (tmp_path / "folder.csv").mkdir()
    with pytest.raises(FormatError, match=r"folder\.csv: is a directory"):
        read_results(tmp_path / "folder.csv")  # IsADirectoryError
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "other.parquet"
    pq.write_table(pa.table({"a": [1]}), path)  # read back as [{'a': 1}], as if a results table
    with pytest.raises(FormatError, match=r"other\.parquet: expected the columns run, "):
        read_results(path)


def test_the_table_is_streamed_in_row_groups_and_appears_only_when_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    monkeypatch.setattr(results_table, "ROW_GROUP_ROWS", 4)
    results = [_ok(str(k)) for k in range(1, 6)] + [FAILED]  # 5 x 3 rows + 2: 17 rows
    with TableWriter(tmp_path) as table:
        for result in results:
            table.write(rows_from_results([result], SETTINGS))
            assert not table.path.exists()
    assert table.rows == 17
    meta = pq.ParquetFile(table.path).metadata
    assert [meta.row_group(k).num_rows for k in range(meta.num_row_groups)] == [4, 4, 4, 4, 1]
    assert read_results(table.path) == rows_from_results(results, SETTINGS)


def test_a_table_interrupted_midway_leaves_nothing(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")

    def interrupted() -> None:
        with TableWriter(tmp_path) as table:
            table.write(rows_from_results([_ok("1")], SETTINGS))
            msg = "Ctrl-C while writing"
            raise KeyboardInterrupt(msg)

    with pytest.raises(KeyboardInterrupt, match=r"^Ctrl-C while writing$"):
        interrupted()
    assert list(tmp_path.iterdir()) == []
