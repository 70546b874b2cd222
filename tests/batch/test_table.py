"""The results table: rows per run, evaluation and signal; Parquet, or CSV without pyarrow."""

from __future__ import annotations

import sys

import pytest

from robot_msgs.batch.settings import Settings
from robot_msgs.batch.table import COLUMNS, STAT_COLUMNS, read_table, rows_from_results, write_table
from robot_msgs.batch.tasks import RunResult
from robot_msgs.compare import Comparison, ErrorStats, error_stats
from robot_msgs.errors import FormatError, OutputExistsError

SETTINGS = Settings.build(
    {"evaluate": [{"metric": "ape"}, {"metric": "rpe", "relation": "translation", "delta": 1}]}
)


def _ok(trial: str) -> RunResult:
    ape = Comparison(
        metric="ape",
        stats={"x": error_stats([0.3, -0.4], [0.0, 1.0]), "y": error_stats([0.0])},
        units={"x": "m", "y": "m"},
    )
    rpe = Comparison(
        metric="rpe", stats={"translation": error_stats([])}, units={"translation": "m"}
    )
    return RunResult(
        digest=f"d{trial}", algorithm="orb", sequence="MH_01", trial=trial, status="ok",
        comparisons=(ape, rpe),
    )  # fmt: skip


FAILED = RunResult(
    digest="dbad", algorithm="vins", sequence="MH_01", trial="1", status="failed",
    error_type="FormatError", error="e.tum:3: expected 8 columns, got 7",
)  # fmt: skip


def test_rows_hold_every_error_stats_field_per_signal():
    rows = rows_from_results([_ok("1")], SETTINGS)
    assert [(r["evaluation"], r["signal"]) for r in rows] == [
        ("ape:translation", "x"),
        ("ape:translation", "y"),
        ("rpe:translation:1.0f", "translation"),
    ]
    x = rows[0]
    assert list(x) == list(COLUMNS)
    assert tuple(ErrorStats.__dataclass_fields__) == STAT_COLUMNS
    # By hand: errors 0.3 and -0.4 give rms sqrt((0.09 + 0.16) / 2), mean -0.05, and with
    # times 0 and 1 the |e| integral of the line crossing zero at t = 3/7: 0.3*3/7/2 + 0.4*4/7/2.
    assert x["rms"] == pytest.approx((0.25 / 2) ** 0.5)
    assert x["mean"] == pytest.approx(-0.05)
    assert x["iae"] == pytest.approx(0.3 * 3 / 7 / 2 + 0.4 * 4 / 7 / 2)
    assert rows[1]["iae"] is None  # NaN (no time axis) is null
    assert rows[2]["n"] == 0
    assert rows[2]["rms"] is None
    assert x["status"] == "ok"
    assert x["error"] == ""


def test_a_failed_run_has_one_row_per_evaluation_with_its_error_and_null_stats():
    rows = rows_from_results([FAILED], SETTINGS)
    assert [r["evaluation"] for r in rows] == ["ape:translation", "rpe:translation:1.0f"]
    assert rows[0]["status"] == "failed"
    assert rows[0]["error"] == "e.tum:3: expected 8 columns, got 7"
    assert all(rows[0][c] is None for c in STAT_COLUMNS)


def test_parquet_round_trip_keeps_every_value(tmp_path):
    pytest.importorskip("pyarrow")
    rows = rows_from_results([_ok("1"), _ok("2"), FAILED], SETTINGS)
    path, note = write_table(rows, tmp_path)
    assert (path.name, note) == ("results.parquet", "")
    assert read_table(path) == rows
    with pytest.raises(OutputExistsError, match=r"results\.parquet exists"):
        write_table(rows, tmp_path)


def test_without_pyarrow_the_table_is_csv_and_the_note_says_why(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    rows = rows_from_results([_ok("1"), FAILED], SETTINGS)
    path, note = write_table(rows, tmp_path)
    assert path.name == "results.csv"
    assert "wrote CSV instead of Parquet" in note
    assert "pip install 'robot_msgs[parquet]'" in note
    assert read_table(path) == rows


def test_reading_a_csv_with_other_columns_is_refused(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(FormatError, match=r"results.csv: expected the columns algorithm"):
        read_table(path)
