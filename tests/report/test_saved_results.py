"""Saved results side by side: shared and differing settings, the CSV's raw numbers."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from robot_msgs.errors import FormatError
from robot_msgs.evaluation import EvaluationSettings, ape
from robot_msgs.io import read_trajectory
from robot_msgs.io.result_files import save_result
from robot_msgs.report.saved_results import compare_results, load_saved_results, results_csv

ZIPS = Path(__file__).parents[1] / "data" / "evo_results"


def test_ours_and_evos_load_side_by_side(tmp_path: Path) -> None:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    ours = save_result(
        tmp_path / "ours.npz", ape(ref, est, settings=EvaluationSettings(align="se3"))
    )
    named = load_saved_results([ours, ZIPS / "fr1_xyz_ape_se3.zip"])
    table = compare_results(named)
    assert table.shared["align"] == "se3"
    assert table.shared["relation"] == "translation"
    # evo's zip does not record its association settings: unknown there, not "differing".
    assert table.differing == []
    assert {"sync", "max_diff_s", "offset_s"} <= set(table.unrecorded)
    assert table.unrecorded["sync"] == [str(ZIPS / "fr1_xyz_ape_se3.zip")]
    assert "sync" not in table.shared
    assert table.ranking is None
    rows = list(csv.DictReader(io.StringIO(results_csv(table))))
    assert [r["tool"] for r in rows] == ["robot_msgs", "evo"]
    assert float(rows[0]["rms"]) == pytest.approx(float(rows[1]["rms"]), rel=1e-9)
    assert float(rows[1]["sse"]) == pytest.approx(
        0.14243298549148023, rel=1e-12
    )  # evo's stats.json sse
    assert rows[1]["setting:sync"] == ""
    data = table.to_dict()
    assert [r["name"] for r in data["results"]] == [str(ours), str(ZIPS / "fr1_xyz_ape_se3.zip")]


def test_different_metrics_are_never_ranked(tmp_path: Path) -> None:
    named = load_saved_results([ZIPS / "fr1_xyz_ape_se3.zip", ZIPS / "fr1_xyz_rpe_se3_1m.zip"])
    table = compare_results(named, force=True)
    assert table.ranking is None
    assert table.notes[0].startswith("not ranked: the results hold different metrics or signals")


def test_an_unreadable_result_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "x.npz"
    bad.write_bytes(b"nothing")
    with pytest.raises(FormatError, match=r"x\.npz: not a readable \.npz result"):
        load_saved_results([bad])
