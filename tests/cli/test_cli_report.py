"""``robot-msgs report``: outputs, refusal to overwrite, errors as one line, progress."""

from __future__ import annotations

import io
import json
import shutil

import pytest

from robot_msgs.cli import main
from robot_msgs.cli.report import ProgressBar, json_safe


@pytest.fixture
def runs_copy(tmp_path):
    from importlib.resources import files

    source = files("robot_msgs").joinpath("examples", "runs")
    target = tmp_path / "runs"
    shutil.copytree(str(source), target)
    return target


def test_terminal_summary_and_existing_outputs_are_refused(runs_copy, tmp_path, capsys):
    out = tmp_path / "out.json"
    out.write_text("keep")
    code = main(["report", str(runs_copy / "runs.toml"), "--json", str(out), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.startswith("ERROR: ")
    assert "exists; pass --force" in captured.err
    assert out.read_text() == "keep"
    code = main(["report", str(runs_copy / "runs.toml"), "--json", str(out), "--force", "--no-progress",
                 "--rpe-delta"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 0
    assert "Ranking" in captured.out
    assert "Repeatability (no reference)" in captured.out
    assert f"wrote {out}" in captured.out
    data = json.loads(out.read_text())
    assert data["runs"][0]["rpe"] == []  # --rpe-delta with no value: no RPE
    assert data["settings"]["rpe_deltas"] == ""


def test_progress_bar_on_stderr(runs_copy, capsys):
    code = main(
        ["report", str(runs_copy / "kfslam" / "fr1_xyz" / "trial_1"), "--progress", "--quiet"]
    )
    captured = capsys.readouterr()
    assert code == 0
    assert "1/1" in captured.err
    assert captured.out == ""


def test_bad_input_is_one_error_line(tmp_path, capsys):
    code = main(["report", str(tmp_path / "missing"), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.strip().count("\n") == 0
    assert "missing: expected a run folder" in captured.err


def test_bad_settings_are_refused(runs_copy, capsys):
    code = main(["report", str(runs_copy / "runs.toml"), "--coverage-gap", "0", "--no-progress"])
    assert code == 1
    assert "Expected coverage_gap_s > 0 s, got 0.0" in capsys.readouterr().err


def test_mixed_alignments_from_a_manifest_are_refused_unless_allowed(runs_copy, capsys):
    manifest = runs_copy / "runs.toml"
    text = manifest.read_text().replace(
        'path = "dvo/fr1_xyz/trial_1"\n', 'path = "dvo/fr1_xyz/trial_1"\nalign = "sim3"\n', 1
    )
    manifest.write_text(text)
    assert main(["report", str(manifest), "--no-progress", "--quiet", "--rpe-delta"]) == 1
    assert "different `align` settings" in capsys.readouterr().err
    assert (
        main(["report", str(manifest), "--no-progress", "--rpe-delta", "--allow-mixed-settings"])
        == 0
    )
    out = capsys.readouterr().out
    assert "Ranking (FORCED: settings mixed)" in out
    assert "FORCED: comparisons with different align settings" in out


def test_progress_bar_overwrites_its_line():
    stream = io.StringIO()
    bar = ProgressBar(stream, width=4)
    bar(1, 2, "a long name")
    bar(2, 2, "b")
    bar.close()
    assert stream.getvalue() == "\r[##..] 1/2 a long name\r[####] 2/2 b          \n"


def test_json_safe_replaces_non_finite_numbers():
    assert json_safe({"a": (1.0, float("-inf")), "b": "nan"}) == {"a": [1.0, None], "b": "nan"}
