"""The shipped example runs: what the generator put in them is what the report finds.

The expected facts are the generator's configuration (``scripts/make_example_runs.py``:
``LOSSES``, ``CRASHES``, ``TRIALS``, ``RUNS_ON``), not outputs of the report code.
"""

from __future__ import annotations

import csv
import io
import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from robot_msgs.compare import REPEATABILITY_STATEMENT, Report
from robot_msgs.runs import load_runs

MANIFEST = Path(str(files("robot_msgs") / "examples" / "runs" / "runs.toml"))


@pytest.fixture(scope="module")
def report(example_outputs: dict[str, Path]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(example_outputs["json"].read_text())
    return document


def _run(report: dict[str, Any], name: str) -> dict[str, Any]:
    run: dict[str, Any] = next(r for r in report["runs"] if r["name"] == name)
    return run


def test_example_folder_is_small() -> None:
    folder = MANIFEST.parent
    total = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    assert total < 1_000_000


def test_example_runs_load_with_their_metadata() -> None:
    runs = load_runs([MANIFEST]).runs
    assert len(runs) == 18  # 3 x 2 x 2 with a reference, 2 x 3 without
    assert sum(r.reference is None for r in runs) == 6
    crashed = next(r for r in runs if r.name == "vio_ekf/fr2_desk/trial_2")
    assert crashed.meta.exit_code == -11
    assert crashed.meta.input_rate_hz == 10.0


def test_the_vio_run_with_losses_of_1_5_and_0_5_s_reports_2_losses_and_2_s(
    report: dict[str, Any],
) -> None:
    run = _run(report, "vio_ekf/fr1_xyz/trial_1")
    assert [(round(x["end_s"] - x["start_s"], 6)) for x in run["losses"]] == [1.5, 0.5]
    assert sum(x["end_s"] - x["start_s"] for x in run["losses"]) == pytest.approx(2.0)
    assert run["success"] is True


def test_failures_are_the_crash_and_the_unrecovered_loss(report: dict[str, Any]) -> None:
    failed = {r["name"]: r["failure"] for r in report["runs"] if not r["success"]}
    assert failed == {
        "vio_ekf/fr2_desk/trial_2": "killed by SIGSEGV (exit code -11)",
        "dvo/lab_loop/trial_3": "tracking lost, not recovered",
    }


def test_sequence_without_reference_has_repeatability_not_accuracy(report: dict[str, Any]) -> None:
    for run in (r for r in report["runs"] if r["sequence"] == "lab_loop"):
        assert run["comparisons"] == {}
        assert run["repeatability"]["statement"] == REPEATABILITY_STATEMENT
    assert report["ranking"]["sequences"] == ["fr1_xyz", "fr2_desk"]


def test_json_is_strict_and_rebuilds_the_report(example_outputs: dict[str, Path]) -> None:
    text = example_outputs["json"].read_text()
    data = json.loads(text, parse_constant=lambda c: pytest.fail(f"non-strict JSON constant {c}"))
    again = Report.from_dict(data)
    assert len(again.runs) == 18
    assert again.runs[0].accuracy is not None
    assert again.runs[0].accuracy.stats["translation"].n > 0


def test_outputs_have_the_expected_shapes(example_outputs: dict[str, Path]) -> None:
    rows = list(csv.DictReader(io.StringIO(example_outputs["csv"].read_text())))
    assert len(rows) == 18
    assert rows[0]["run"] == "kfslam/fr1_xyz/trial_1"
    assert float(rows[0]["ape_rmse_m"]) > 0
    assert rows[0]["alignment"] == "se3"
    lab = next(r for r in rows if r["sequence"] == "lab_loop")
    assert lab["ape_rmse_m"] == ""  # NaN is an empty cell
    tex = example_outputs["tex"].read_text()
    titles = re.findall(r"\\caption\{(.*?)(?: \(\d+ of \d+\))?\}", tex)
    assert list(dict.fromkeys(titles)) == [  # wide ones folded into parts
        "Ranking",
        "Per algorithm and sequence",
        "Repeatability (no reference)",
        "Runs",
        "Environment",
    ]
    assert tex.count(r"\begin{tabular}") == len(titles)
    assert r"vio\_ekf" in tex
    md = example_outputs["md"].read_text()
    assert "### Ranking" in md
    assert "| 1 | kfslam |" in md
    html = example_outputs["html"].read_text()
    assert html.startswith("<!DOCTYPE html>")
    assert "does not establish position accuracy" in html


def test_every_rpe_delta_is_in_the_tables_and_the_csv(
    example_outputs: dict[str, Path], report: dict[str, Any]
) -> None:
    rows = list(csv.DictReader(io.StringIO(example_outputs["csv"].read_text())))
    for delta in ("0.5", "1", "2"):
        column = f"rpe_rmse_m@{delta}s"
        for row in rows:
            run = _run(report, row["run"])
            rpe = next(
                (
                    s
                    for c in run["comparisons"].values()
                    if c["metric"] == "rpe"
                    for s in c["signals"]
                    if s["quantity"] == "translation" and f"{s['delta']:g}" == delta
                ),
                None,
            )
            if rpe is None:
                assert row[column] == ""
            else:
                assert float(row[column]) == rpe["stats"]["rms"]
        for name in ("md", "html", "static.html"):
            assert f"RPE {delta} s RMSE [m]" in example_outputs[name].read_text()


def test_example_accuracy_agrees_with_evo(report: dict[str, Any]) -> None:
    stored = json.loads(
        (Path(__file__).parents[1] / "data" / "report_examples_evo.json").read_text()
    )
    for name, evo in stored["runs"].items():
        run = _run(report, name)
        ape = run["comparisons"]["ape:translation"]
        (stats,) = (s["stats"] for s in ape["signals"] if s["quantity"] == "translation")
        assert ape["counts"]["matched"] == evo["matched"]
        assert stats["n"] == evo["matched"]
        for key, ours in (("rmse", "rms"), ("mean", "mean"), ("median", "median"), ("max", "max")):
            assert stats[ours] == pytest.approx(evo[key], rel=1e-9), (name, key)


def test_the_text_report_states_each_algorithms_version_hardware_and_software(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """What each run's ``meta.json`` says (read here with ``json``) is in the text report."""
    from robot_msgs.cli import main

    metas = [json.loads(p.read_text()) for p in sorted(MANIFEST.parent.rglob("meta.json"))]
    assert main(["report", str(MANIFEST), "--no-progress"]) == 0
    text = capsys.readouterr().out
    environment = text[text.index("\nEnvironment\n") :]
    for meta in metas:
        software = ", ".join(f"{k} {v}" for k, v in meta["software"].items())
        for said in (meta["version"], meta["hardware"], software):
            assert " ".join(said.split()) in " ".join(environment.split()), said
    assert "robot_msgs " in environment
    assert max(len(line) for line in environment.splitlines()) <= 80  # notes wrap


def test_a_run_that_states_no_hardware_is_counted_as_not_stated() -> None:
    from robot_msgs.msg.catalog import example
    from robot_msgs.report.tables import environment_table

    report = example("compare/Report")
    assert isinstance(report, Report)
    (run,) = report.runs  # 8-core x86-64, 32 GB
    silent = run.replace(name=f"{run.name}_b", hardware="")
    table = environment_table(report.replace(runs=(run, silent)))
    assert table.rows == ((run.algorithm, run.version or "not stated", "2"),)
    assert table.notes[0].startswith(
        f"{run.algorithm}: hardware {run.hardware}; not stated; software "
    )


def test_a_run_that_states_no_algorithm_is_shown_as_not_stated() -> None:
    """A run folder under a [[runs]] path without meta.json has no algorithm: the
    environment line read ': hardware not stated; software not stated.' (a review)."""
    from robot_msgs.msg.catalog import example
    from robot_msgs.report.tables import environment_table

    report = example("compare/Report")
    assert isinstance(report, Report)
    (run,) = report.runs
    unnamed = run.replace(algorithm="", version="", hardware="", software={})
    table = environment_table(report.replace(runs=(unnamed,)))
    assert table.rows == (("not stated", "not stated", "1"),)
    assert table.notes[0] == "algorithm not stated: hardware not stated; software not stated."
