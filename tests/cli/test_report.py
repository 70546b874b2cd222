"""``robot-msgs report``: outputs, refusal to overwrite, errors as one line, settings flags."""

from __future__ import annotations

import json
import re
import shutil
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.cli import main
from tests.cli.evaluation_files import write_kitti_run
from tests.runs.tree import make_tree, make_two_versions, write_tum
from tests.terminal import Terminal

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def runs_copy(tmp_path: Path) -> Path:
    from importlib.resources import files

    source = files("robot_msgs") / "examples" / "runs"
    target = tmp_path / "runs"
    shutil.copytree(str(source), target)
    return target


def test_terminal_summary_and_existing_outputs_are_refused(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
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
    assert list(data["runs"][0]["comparisons"]) == ["ape:translation"]  # --rpe-delta alone: no RPE
    assert data["settings"]["metrics"] == ["ape:translation"]


def test_the_shipped_example_runs_by_their_example_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "example:runs/runs.toml", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "kfslam/fr1_xyz/trial_1" in out
    # The shipped runs use report's defaults (align se3): said so, in no field names.
    assert "  Settings: report's defaults: --align se3.\n" in out
    assert not re.search(r"\w=\S", out)
    assert "None" not in out


def test_progress_line_on_stderr(runs_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["report", str(runs_copy / "kfslam" / "fr1_xyz" / "trial_1"), "--progress", "--quiet"]
    )
    captured = capsys.readouterr()
    assert code == 0
    assert "report 1/1 runs" in captured.err
    assert captured.out == ""


def test_bad_input_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["report", str(tmp_path / "missing"), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.strip().count("\n") == 0
    assert "missing: no such manifest file, run folder or folder of runs" in captured.err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--coverage-gap", "0"], "ERROR: --coverage-gap 0: expected float > 0"),
        (["--max-diff", "-1"], "ERROR: --max-diff -1: expected float >= 0"),
        (["--align", "none", "--n-align", "5"], "ERROR: --n-align 5: expected an alignment method"),
        (["--statistic", "average"], "invalid choice: 'average'"),
        (["--rpe-unit", "km"], "invalid choice: 'km'"),
        # These said "--rpe-delta: expected ...", no value, where --coverage-gap 0 and
        # rpe's --delta 0 say theirs (a hunt).
        (["--rpe-delta", "0"], "ERROR: --rpe-delta 0: expected float > 0"),
        # These named --delta-unit, a flag report has not, and the library's `metrics` (a
        # hunt): said with report's own flags, as the command line's mistakes (status 2).
        (
            ["--rpe-delta", "0.5", "--rpe-unit", "f"],
            (
                "ERROR: --rpe-delta 0.5: expected a whole number of frames (--rpe-unit s for "
                "seconds, --rpe-unit m for metres), got float 0.5\n"
            ),
        ),
        (
            ["--rpe-delta", "1", "1.0"],
            "ERROR: --rpe-delta 1 1: expected distinct deltas, got 1 twice\n",
        ),
    ],
)
def test_bad_settings_are_refused_naming_the_flag(
    runs_copy: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    try:
        code = main(["report", str(runs_copy / "runs.toml"), *flags, "--no-progress"])
    except SystemExit as stop:  # argparse refuses a bad choice itself
        code = int(stop.code or 0)
    assert code == 2
    assert message in capsys.readouterr().err


def test_settings_flags_win_over_the_manifest(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = runs_copy / "runs.toml"
    manifest.write_text('[settings]\nalign = "none"\n' + manifest.read_text())
    out = tmp_path / "r.json"
    flags = ["--json", str(out), "--no-progress", "--quiet", "--rpe-delta", "2", "--rpe-unit", "m"]
    assert main(["report", str(manifest), *flags]) == 0
    settings = json.loads(out.read_text())["settings"]
    assert settings["align"] == "none"  # the manifest's
    assert settings["metrics"] == ["ape:translation", "rpe:translation:2m:all"]
    assert main(["report", str(manifest), *flags, "--force", "--align", "sim3"]) == 0
    assert json.loads(out.read_text())["settings"]["align"] == "sim3"


def test_a_time_range_reaches_every_run(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    base = ["report", str(runs_copy / "kfslam" / "fr1_xyz" / "trial_1"), "--no-progress"]
    assert main([*base, "--json", str(out), "--quiet"]) == 0
    whole = json.loads(out.read_text())["runs"][0]["comparisons"]["ape:translation"]
    start = json.loads(out.read_text())["runs"][0]["sequence_start_s"]
    assert main([*base, "--json", str(out), "--quiet", "--force", "--t-start", str(start + 5)]) == 0
    cut = json.loads(out.read_text())["runs"][0]["comparisons"]["ape:translation"]
    assert cut["counts"]["matched"] < whole["counts"]["matched"]
    assert cut["counts"]["reference_outside_range"] > 0
    assert cut["settings"]["t_start_s"] == pytest.approx(start + 5)


def test_a_per_run_alignment_is_refused_naming_the_entry(
    runs_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = runs_copy / "runs.toml"
    text = manifest.read_text().replace(
        'path = "dvo/fr1_xyz/trial_1"\n', 'path = "dvo/fr1_xyz/trial_1"\nalign = "sim3"\n', 1
    )
    manifest.write_text(text)
    assert main(["report", str(manifest), "--no-progress", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "[[runs]] #3: a per-run `align` is refused" in err
    assert len(err.strip().splitlines()) == 1


def test_force_without_an_output_and_an_output_in_a_missing_folder_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "example:runs/runs.toml", "--force"]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --force only goes with an output (--html, --json, --csv, --latex, --markdown)\n"
    )
    out = tmp_path / "reprot" / "runs.csv"
    assert main(["report", "example:runs/runs.toml", "--csv", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"ERROR: {out}: cannot write it: the folder {out.parent} does not exist\n"
    )
    assert not out.parent.exists()


def test_an_output_that_is_the_manifest_read_is_refused_even_with_force(
    runs_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `report runs.toml --csv runs.toml --force` replaced the manifest by the CSV (res and
    # traj refuse an output that is an input; report did not pass its inputs; a hunt).
    manifest = runs_copy / "runs.toml"
    before = manifest.read_text()
    assert main(["report", str(manifest), "--csv", str(manifest), "--force", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: --csv {manifest} is the input {manifest} "), err
    assert "writing it would replace what the command reads" in err
    assert manifest.read_text() == before
    # A bench folder's files are what report reads of it: --json DIR/summary.json made
    # the folder unreadable ("settings: Expected fields of RunSettings").
    sweep = runs_copy.parent / "sweep"
    assert main(["bench", str(manifest), "--out", str(sweep), "--serial", "--quiet"]) == 0
    capsys.readouterr()
    summary = sweep / "summary.json"
    kept = summary.read_text()
    assert main(["report", str(sweep), "--json", str(summary), "--force", "--quiet"]) == 2
    assert capsys.readouterr().err.startswith(f"ERROR: --json {summary} is the input {summary} ")
    assert summary.read_text() == kept
    # A run's own files too: --csv onto a run's estimate replaced it with the CSV.
    estimate = runs_copy / "kfslam" / "fr1_xyz" / "trial_1" / "estimate.tum"
    kept = estimate.read_text()
    assert main(["report", str(manifest), "--csv", str(estimate), "--force", "--quiet"]) == 2
    assert capsys.readouterr().err.startswith(f"ERROR: --csv {estimate} is the input {estimate} ")
    assert estimate.read_text() == kept


def test_html_is_interactive_unless_static(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("plotly")
    pytest.importorskip("matplotlib")
    page, still = tmp_path / "r.html", tmp_path / "s.html"
    assert main(["report", str(runs_copy), "--quiet", "--no-progress", "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "Plotly.newPlot" in text
    assert '<div class="plot"' in text
    assert (
        main(
            ["report", str(runs_copy), "--quiet", "--no-progress", "--html", str(still), "--static"]
        )
        == 0
    )
    text = still.read_text(encoding="utf-8")
    assert "<script" not in text
    assert "data:image/png;base64," in text


def test_runs_that_name_no_algorithm_are_ranked_as_not_stated_in_text_and_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run folders given alone without meta.json: the environment table said 'not
    stated', the ranking's algorithm cell was empty in the terminal and the page."""
    pytest.importorskip("plotly")
    t = np.arange(0.0, 5.05, 0.1)
    xyz = np.column_stack([t, np.zeros_like(t), np.zeros_like(t)])
    for name in ("a", "b"):
        write_tum(tmp_path / name / "estimate.tum", t, xyz)
        write_tum(tmp_path / name / "reference.tum", t, xyz)
    page = tmp_path / "r.html"
    argv = ["report", str(tmp_path / "a"), str(tmp_path / "b"), "--align", "none"]
    assert main([*argv, "--no-progress", "--html", str(page)]) == 0
    ranking = capsys.readouterr().out.split("\nPer algorithm")[0]
    assert re.search(r"^1  not stated  +1\.00  +2/2 ", ranking, flags=re.MULTILINE), ranking
    assert '<td class="num">1</td><td>not stated</td>' in page.read_text(encoding="utf-8")


def test_html_run_notes_name_the_flags(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run note said "(`min_coverage=`)" to a command-line user (a review)."""
    pytest.importorskip("plotly")
    page = tmp_path / "r.html"
    argv = ["report", str(runs_copy), "--min-coverage", "0.999", "--quiet", "--no-progress"]
    assert main([*argv, "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert 'under the 100% success needs (<span class="flag">--min-coverage</span>)' in text
    assert "min_coverage=" not in text
    capsys.readouterr()
    assert main(["report", str(runs_copy), "--static"]) == 2
    assert capsys.readouterr().err.startswith("ERROR: --static is a form of --html FILE")


def test_interactive_html_without_plotly_names_the_extra_and_the_fallback(
    runs_copy: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "plotly", None)
    page = tmp_path / "r.html"
    assert main(["report", str(runs_copy), "--quiet", "--html", str(page)]) == 1
    err = capsys.readouterr().err
    assert "pip install 'robot_msgs[html]'" in err
    assert "--static" in err
    assert not page.exists()


def test_a_pipe_found_as_a_run_folders_estimate_is_refused_without_waiting_for_a_writer(
    runs_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO estimate in a run folder: report waited for ever on it (a folder walk's pipe
    has no writer); it is named in one error line instead, at once."""
    import os

    from tests.hostile import deadline

    estimate = runs_copy / "kfslam" / "fr1_xyz" / "trial_2" / "estimate.tum"
    estimate.unlink()
    os.mkfifo(estimate)
    with deadline(30):
        assert main(["report", str(runs_copy / "kfslam" / "fr1_xyz")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1, err
    # The run named once, by report (its error names the file): "run NAME: FILE: ...".
    assert err[0].startswith("ERROR: run trial_2 (")
    assert f"): {estimate}: is a pipe (FIFO) in a run folder: not read" in err[0]


def test_json_without_a_file_is_standard_outputs_only_content(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`report M --json` needed a FILE; `--json -` printed the summary after the JSON."""
    assert main(["report", "example:runs/runs.toml", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["_type"] == "compare/Report"
    assert "Settings:" in captured.err


def test_quiet_silences_the_progress_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`report --quiet` hid the summary but drew the progress line on a terminal."""
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["report", "example:runs/runs.toml", "--quiet"]) == 0
    assert terminal.getvalue() == ""
    assert capsys.readouterr().out == ""
    assert main(["report", "example:runs/runs.toml", "--quiet", "--progress"]) == 0
    assert "report" in terminal.getvalue()


def test_summary_prints_every_table_but_the_runs_and_leaves_the_files_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A walk of 3 policies x 4 sequences x 10 seeds printed 1,191 lines, most of them runs.

    ``--summary`` prints what the full text prints less the "Runs" table (here 2 x 2 x 3
    = 12 runs: one row each in each of its chunks), and writes the same JSON and CSV.
    """
    tree = tmp_path / "tree"
    make_tree(tree, algorithms=("pol_a", "pol_b"), sequences=("s1", "s2"), trials=3)
    outputs = {}
    for flags in ([], ["--summary"]):
        files = tmp_path / ("summary" if flags else "full")
        files.mkdir()
        given = ["--json", str(files / "r.json"), "--csv", str(files / "r.csv")]
        assert main(["report", str(tree), "--no-progress", *flags, *given]) == 0
        printed = capsys.readouterr().out.replace(str(files), "FILES")
        outputs[bool(flags)] = (
            printed,
            (files / "r.json").read_text(),
            (files / "r.csv").read_text(),
        )
    full, summary = outputs[False][0], outputs[True][0]
    blocks = full.split("\n\n")
    runs = [b for b in blocks if b.startswith("Runs\n")]
    assert len(runs) == 1
    start = blocks.index(runs[0])
    # The runs table: its chunks, each a header, a rule and a row per run (12), then the
    # environment table.
    chunks = blocks[start : blocks.index(next(b for b in blocks if b.startswith("Environment")))]
    assert [len(c.splitlines()) for c in chunks[1:]] == [2 + 12] * (len(chunks) - 1)
    assert "\n\n".join(b for b in blocks if b not in chunks) == summary
    assert "pol_a/s1/1" in full
    assert "pol_a/s1/1" not in summary
    assert outputs[False][1:] == outputs[True][1:]  # JSON and CSV alike
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["report", str(tree), "--summary", "--quiet"])
    assert "--quiet: not allowed with argument --summary" in capsys.readouterr().err


def test_a_missing_estimate_file_is_named_as_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mistyped estimate path read "no pose in missing/estimate.tum", as if it were empty."""
    from robot_msgs.io import resolve_path

    reference = resolve_path("example:fr1_xyz/groundtruth.tum")
    manifest = tmp_path / "runs.toml"
    manifest.write_text(
        "[[runs]]\nalgorithm = 'a'\nsequence = 's'\ntrial = 1\n"
        f"estimate = 'missing/estimate.tum'\nreference = '{reference}'\n",
        encoding="utf-8",
    )
    assert main(["report", str(manifest), "--json", "--no-progress"]) == 0
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    assert run["failure"] == "no estimate"
    assert any(
        note.endswith("missing/estimate.tum does not exist (the run wrote nothing, or the "
                      "path is mistyped)")
        for note in run["notes"]
    ), run["notes"]  # fmt: skip


def test_a_success_threshold_given_is_recorded_and_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--min-coverage 0.1` changed the success column and the ranking, and no output said so."""
    assert main(["report", "example:runs/runs.toml", "--min-coverage", "0.1", "--no-progress"]) == 0
    assert "Settings: --min-coverage 0.1." in capsys.readouterr().out
    assert main(["report", "example:runs/runs.toml", "--min-coverage", "0.1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["min_coverage"] == 0.1


def test_the_reading_rules_reach_every_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """KITTI rows as given in a report are what ``rpe`` computes with them, run by run."""
    gt, est, manifest = write_kitti_run(tmp_path, 'kitti_rotations = "as_given"')
    out = tmp_path / "r.json"
    base = ["report", str(manifest), "--no-progress", "--quiet", "--json", str(out)]
    base += ["--rpe-delta", "1", "--rpe-unit", "f"]  # frames: the KITTI files have no times
    rms = {}
    for rule in ("as_given", "nearest"):
        assert main([*base, "--force", "--kitti-rotations", rule]) == 0
        report = json.loads(out.read_text())
        assert report["settings"].get("kitti_rotations", "nearest") == rule
        signal = report["runs"][0]["comparisons"]["rpe:translation:1f:all"]["signals"][0]
        rms[rule] = signal["stats"]["rms"]
        single = [
            "rpe", str(gt), str(est), "--align", "se3", "--delta", "1", "--delta-unit", "f",
            "--all-pairs", "--kitti-rotations", rule, "--json",
        ]  # fmt: skip
        capsys.readouterr()
        assert main(single) == 0
        alone = json.loads(capsys.readouterr().out)["signals"][0]["stats"]["rms"]
        assert rms[rule] == alone
    assert rms["as_given"] != rms["nearest"]  # the rows' digits move an RPE translation
    capsys.readouterr()
    assert (
        main(["report", str(manifest), "--no-progress", "--rpe-delta", "1", "--rpe-unit", "f"]) == 0
    )
    assert "Settings: --kitti-rotations as_given." in capsys.readouterr().out


def test_the_repeated_stamps_default_is_the_first_row_for_every_metric(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """report/bench --help said the default keeps "the last in TUM's RPE protocol".

    A run is read once for all its metrics, so its RPE under protocol tum keeps the first
    row, unlike ``rpe --protocol tum`` alone; the help now says what report and bench do.
    """
    import numpy as np

    from tests.cli.evaluation_files import write_tum

    t = np.arange(101.0) * 0.1
    along = np.stack([t, np.sin(t), 0.1 * t * t], axis=1)
    ref = write_tum(tmp_path / "ref.tum", t, along)
    stamps = t.copy()
    stamps[[50, 80]] = stamps[[49, 79]]  # two rows repeat a stamp, at other positions
    noise = np.random.default_rng(1).normal(0.0, 0.05, along.shape)
    est = write_tum(tmp_path / "est.tum", stamps, along + noise)
    manifest = tmp_path / "runs.toml"
    manifest.write_text(
        '[[settings.evaluate]]\nmetric = "rpe"\ndelta = 1\nprotocol = "tum"\nalign = "none"\n'
        '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "est.tum"\n'
        'reference = "ref.tum"\n'
    )
    assert main(["report", str(manifest), "--no-progress", "--json"]) == 0
    [comparison] = json.loads(capsys.readouterr().out)["runs"][0]["comparisons"].values()
    rms = {}
    for rule in ("first", None):
        given = [] if rule is None else ["--repeated-stamps", rule]
        assert main(["rpe", str(ref), str(est), "--protocol", "tum", "--json", *given]) == 0
        rms[rule] = json.loads(capsys.readouterr().out)["signals"][0]["stats"]["rms"]
    assert comparison["signals"][0]["stats"]["rms"] == rms["first"] != rms[None]
    monkeypatch.setenv("COLUMNS", "200")
    for command in ("report", "bench"):
        with pytest.raises(SystemExit, match="0"):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        rules = text.index("reading rules:")  # the group, after the usage line
        said = text[rules : text.index("--kitti-rotations {", rules)]
        assert "(default: the first, for every metric" in said, said
        assert "the last in TUM's RPE protocol" not in said, said


def _report_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["report", *argv, "--json", "-", "--no-progress"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_a_bench_folder_is_reported_from_its_stored_reports_as_report_evaluates_the_runs(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sweep"
    manifest = str(runs_copy / "runs.toml")
    assert main(["bench", manifest, "--out", str(out), "--serial", "--quiet"]) == 0
    capsys.readouterr()
    evaluated = _report_json(capsys, manifest, "--statistic", "median")
    evaluated_rms = _report_json(capsys, manifest)
    shutil.rmtree(runs_copy)  # nothing is evaluated again: the runs' files are gone
    assert _report_json(capsys, str(out), "--statistic", "median") == evaluated
    assert _report_json(capsys, str(out)) == evaluated_rms
    assert main(["report", str(out), "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "Per algorithm and sequence" in said
    assert "Repeatability (no reference)" in said


def test_a_bench_folder_is_ranked_by_another_rank_failures_rule_as_its_runs_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``report FOLDER --rank-failures worst`` was refused ('only --statistic applies'),
    though the rule, as ``--statistic``, ranks the stored reports and changes none of them.

    By hand (no alignment, z offsets): a's successes 0.05 and 0.10 m and a run ending
    1.9 s early (a failure), b's 0.08 and 0.09 m. Apart: a 0.075 m before b 0.085 m;
    worst: a median(0.05, 0.10, inf) = 0.10 m after b 0.085 m, as the runs report it.
    """
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, np.sin(t), 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    root = tmp_path / "runs"
    (root / "MH_01").mkdir(parents=True)
    np.savetxt(root / "MH_01" / "reference.tum", rows)
    for algorithm, trial, offset, n in [
        ("a", 1, 0.05, 30), ("a", 2, 0.10, 30), ("a", 3, 0.05, 10),
        ("b", 1, 0.08, 30), ("b", 2, 0.09, 30),
    ]:  # fmt: skip
        run = root / algorithm / "MH_01" / str(trial)
        run.mkdir(parents=True)
        np.savetxt(run / "estimate.tum", (rows + np.array([0, 0, 0, offset, 0, 0, 0, 0]))[:n])
    out = tmp_path / "sweep"
    assert (
        main(["bench", str(root), "--out", str(out), "--align", "none", "--serial", "--quiet"]) == 0
    )
    capsys.readouterr()
    worst = _report_json(capsys, str(out), "--rank-failures", "worst")
    assert worst == _report_json(capsys, str(root), "--align", "none", "--rank-failures", "worst")
    ranking: Any = worst["ranking"]
    scores = [(r["algorithm"], r["scores"]["MH_01"]) for r in ranking["rows"]]
    assert scores == [("b", pytest.approx(0.085)), ("a", pytest.approx(0.10))]
    apart: Any = _report_json(capsys, str(out))["ranking"]
    scores = [(r["algorithm"], r["scores"]["MH_01"]) for r in apart["rows"]]
    assert scores == [("a", pytest.approx(0.075)), ("b", pytest.approx(0.085))]


def test_a_bench_folder_refuses_settings_flags_and_company_and_says_what_its_html_lacks(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("plotly")
    out = tmp_path / "sweep"
    manifest = str(runs_copy / "runs.toml")
    assert main(["bench", manifest, "--out", str(out), "--serial", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(out), "--align", "sim3"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: --align: ")
    assert "(only the ranking rules, --statistic and --rank-failures, apply" in err
    assert main(["report", str(out), manifest]) == 1
    assert "a bench output folder is reported alone" in capsys.readouterr().err
    page = tmp_path / "sweep.html"
    assert main(["report", str(out), "--html", str(page), "--no-progress"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "NOTE: the HTML has no trajectory, error, RPE or latency figures" in said
    text = page.read_text()
    assert text.count('class="plot"') == 1  # the comparison across sequences, from the groups
    assert 'data-kind="comparison"' in text
    assert "latency_cdf" not in text
    assert "<h2>Sequence " not in text  # no heading over nothing (a review)


def test_a_run_that_cannot_be_evaluated_stops_the_report_unless_allow_partial(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``report`` stopped on such a run; a bench folder of the same runs was reported whole.

    Both roads now refuse it alike, and with ``--allow-partial`` make the same Report:
    the one of the manifest without that run (its tables, groups and ranking), with a
    note naming it.
    """
    broken = runs_copy / "dvo" / "fr1_xyz" / "trial_2" / "estimate.tum"
    broken.write_text("not a trajectory\n")
    manifest = str(runs_copy / "runs.toml")
    out = tmp_path / "sweep"
    assert main(["bench", manifest, "--out", str(out), "--serial", "--quiet"]) == 1
    capsys.readouterr()
    for given in (manifest, str(out)):
        assert main(["report", given, "--no-progress", "--quiet"]) == 1
        err = capsys.readouterr().err
        assert err.startswith("ERROR: ")
        assert len(err.splitlines()) == 1
    assert "--allow-partial reports the others" in err  # the folder's line names the flag
    partial = _report_json(capsys, manifest, "--allow-partial")
    # The warning goes to stderr, one line naming the run.
    assert main(["report", manifest, "--allow-partial", "--no-progress", "--quiet"]) == 0
    warned = capsys.readouterr().err.splitlines()
    assert len(warned) == 1
    # Worded as bench words it: "failed to evaluate" (it said "not reported", a review).
    assert warned[0].startswith(
        "WARNING: run dvo/fr1_xyz/trial_2 failed to evaluate: FormatError: "
    )
    stored = _report_json(capsys, str(out), "--allow-partial")
    # The note, up to 300 characters of the error, is folded as res folds its notes.
    assert main(["report", manifest, "--allow-partial", "--no-progress"]) == 0
    said = capsys.readouterr().out.split("NOTE: ", 1)[1].splitlines()
    assert len(said) > 1
    assert all(len(line) <= 80 or len(line.split()) == 1 for line in said), said
    # The manifest without that run, written here by hand from the example's.
    text = (runs_copy / "runs.toml").read_text()
    entry = '[[runs]]\npath = "dvo/fr1_xyz/trial_2"\n\n'
    assert entry in text
    (runs_copy / "fewer.toml").write_text(text.replace(entry, ""))
    fewer = _report_json(capsys, str(runs_copy / "fewer.toml"))
    for made in (partial, stored):
        assert {k: v for k, v in made.items() if k != "notes"} == {
            k: v for k, v in fewer.items() if k != "notes"
        }
        assert isinstance(made["notes"], list)
        assert made["notes"][1:] == fewer["notes"]
    assert partial["notes"][0].startswith(  # type: ignore[index]
        "1 of 18 runs has no report: it failed to evaluate (dvo/fr1_xyz/trial_2: "
        f"FormatError: {broken}: "
    )
    assert stored["notes"][0] == (  # type: ignore[index]
        "1 of 18 runs of the sweep has no report (1 failed to evaluate, 0 not evaluated; "
        f"{out / 'summary.json'} names them)"
    )


def test_allow_partial_names_every_run_that_failed_to_evaluate_in_the_report(
    runs_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A report of 192 runs, 4 failing to evaluate, named the first in its note "and 3
    more": the HTML page and the JSON kept no trace of which (the warnings went to a
    terminal). The note names each, with its error."""
    trials = ("dvo/fr1_xyz/trial_2", "kfslam/fr2_desk/trial_1", "vio_ekf/fr1_xyz/trial_1")
    for trial in trials:
        (runs_copy / trial / "estimate.tum").write_text("not a trajectory\n")
    partial = _report_json(capsys, str(runs_copy / "runs.toml"), "--allow-partial")
    note = partial["notes"][0]  # type: ignore[index]
    assert note.startswith("3 of 18 runs have no report: they failed to evaluate (")
    for trial in trials:
        assert f"{trial}: FormatError: {runs_copy / trial / 'estimate.tum'}" in note
    assert "more" not in note


@pytest.mark.parametrize(("failing", "said"), [(11, 11), (12, 10)])
def test_a_note_names_ten_failed_runs_and_counts_the_rest_or_names_the_one_more(
    runs_copy: Path, capsys: pytest.CaptureFixture[str], failing: int, said: int
) -> None:
    """Past ten, the note counts the rest; "; and 1 more" said no less than its name
    (``text.listed``'s rule, which the note wrote by hand)."""
    trials = sorted(p.parent for p in runs_copy.glob("*/*/*/estimate.tum"))[:failing]
    for trial in trials:
        (trial / "estimate.tum").write_text("not a trajectory\n")
    partial = _report_json(capsys, str(runs_copy / "runs.toml"), "--allow-partial")
    note = partial["notes"][0]  # type: ignore[index]
    assert note.startswith(f"{failing} of 18 runs have no report: they failed to evaluate (")
    assert note.count(": FormatError: ") == said
    assert note.endswith(f"; and {failing - said} more)" if failing > said else "a header))")


def test_an_invalid_meta_json_stops_only_its_run_with_allow_partial(
    runs_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One broken meta.json stopped the report of every run, even with --allow-partial
    (it was read while the runs were listed, outside the per-run handling)."""
    meta = runs_copy / "dvo" / "fr1_xyz" / "trial_2" / "meta.json"
    manifest = str(runs_copy / "runs.toml")
    for text in ('{"trial": [2]}', "{oops"):
        meta.write_text(text)
        assert main(["report", manifest, "--no-progress", "--quiet"]) == 1
        (line,) = capsys.readouterr().err.splitlines()
        assert line.startswith(f"ERROR: run dvo/fr1_xyz/trial_2 ({manifest} [[runs]] #4): {meta}")
        assert line.endswith("; --allow-partial reports the others")
        partial = _report_json(capsys, manifest, "--allow-partial")
        assert len(partial["runs"]) == 17  # type: ignore[arg-type]
        assert partial["notes"][0].startswith(  # type: ignore[index]
            f"1 of 18 runs has no report: it failed to evaluate (dvo/fr1_xyz/trial_2: "
            f"FormatError: {meta}"
        )
        assert main(["report", manifest, "--allow-partial", "--no-progress", "--quiet"]) == 0
        (warned,) = capsys.readouterr().err.splitlines()
        assert warned.startswith(
            f"WARNING: run dvo/fr1_xyz/trial_2 failed to evaluate: FormatError: {meta}"
        )


def test_allow_partial_names_the_runs_left_out_of_a_bench_folder_too(
    runs_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``report MANIFEST --allow-partial`` warned of each run left out; ``report DIR`` of
    the same runs said nothing: its note sends the reader to summary.json."""
    for trial in ("dvo/fr1_xyz/trial_2", "kfslam/fr2_desk/trial_1"):
        broken = runs_copy / trial / "estimate.tum"
        broken.write_text("not a trajectory\n")
    out = tmp_path / "sweep"
    assert main(["bench", str(runs_copy / "runs.toml"), "--out", str(out), "--serial", "--quiet"])
    capsys.readouterr()
    summary = json.loads((out / "summary.json").read_text())
    # Named as the manifest road and the runs table name them (bench named them by their
    # keys, dvo/fr1_xyz/2, where report MANIFEST said dvo/fr1_xyz/trial_2).
    assert sorted(summary["errors"]) == ["dvo/fr1_xyz/trial_2", "kfslam/fr2_desk/trial_1"]
    assert main(["report", str(out), "--allow-partial", "--no-progress", "--quiet"]) == 0
    warned = capsys.readouterr().err.splitlines()
    assert warned == [
        f"WARNING: run {run} failed to evaluate: {error}"
        for run, error in summary["errors"].items()
    ]
    # A run the sweep never evaluated (its worker died) is said as bench says it.
    summary["infrastructure"] = {"orb/MH_01/9": "WorkerCrashed: killed by SIGKILL"}
    summary["n_runs"] += 1
    summary["n_crashed"] = 1
    (out / "summary.json").write_text(json.dumps(summary))
    assert main(["report", str(out), "--allow-partial", "--no-progress", "--quiet"]) == 0
    warned = capsys.readouterr().err.splitlines()
    assert warned[2:] == [
        "WARNING: run orb/MH_01/9 not evaluated: WorkerCrashed: killed by SIGKILL"
    ]


def test_a_run_that_stops_the_report_is_named_with_its_manifest_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`report m.toml` whose run read /dev/zero said "/dev/zero: is a character device"
    and not which of the manifest's runs named it (bench names it in its table)."""
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        '[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\nestimate = "/dev/null"\n'
        'reference = "example:fr1_xyz/groundtruth.tum"\n'
    )
    assert main(["report", str(manifest), "--no-progress"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"ERROR: run a/s/1 ({manifest} [[runs]] #1): /dev/null: is a ")
    assert line.endswith("; --allow-partial reports the others")


def test_trials_without_a_reference_on_different_clocks_are_reported_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two reference-free trials with no stamps in common made ``report`` stop with an
    ``ERROR:`` from the repeatability step, where ``bench`` noted it (a review)."""
    t = np.arange(50) * 0.1
    xyz = np.column_stack([t, np.sin(t), np.zeros_like(t)])
    write_tum(tmp_path / "orb" / "MH_01" / "1" / "estimate.tum", t, xyz)
    write_tum(tmp_path / "orb" / "MH_01" / "2" / "estimate.tum", t + 1000.0, xyz)
    assert main(["report", str(tmp_path), "--no-progress"]) == 0
    said = capsys.readouterr().out
    said = " ".join(said.split())
    assert "repeatability of orb/MH_01 left out: No pose pairs found" in said
    assert (
        "the offset (--offset SECONDS) is -1000" in said
    )  # the command's flags, not the library's
    assert "offset_s" not in said


def test_two_versions_of_one_algorithm_are_ranked_and_summarised_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder of orb 1.0 and orb 2.0 runs was ranked as one "orb" with blended scores
    (s1 0.15, s2 0.30: medians over both versions); the numbers: tests/runs/tree.py."""
    root = make_two_versions(tmp_path / "runs")
    data = _report_json(capsys, str(root), "--align", "none")
    ranking: Any = data["ranking"]
    rows = [
        (r["label"], r["version"], r["mean_rank"], r["n_runs"], r["scores"])
        for r in ranking["rows"]
    ]
    assert rows == [
        ("orb 2.0", "2.0", 1.0, 3, {"s1": pytest.approx(0.15), "s2": pytest.approx(0.25)}),
        ("orb 1.0", "1.0", 2.0, 3, {"s1": pytest.approx(0.20), "s2": pytest.approx(0.40)}),
    ]
    groups: Any = data["groups"]
    medians = [
        (g["version"], g["sequence"], g["accuracy"]["group"]["configuration"],
         g["accuracy"]["signals"][0]["stats"]["median"])
        for g in groups
    ]  # fmt: skip
    assert medians == [
        ("1.0", "s1", "orb 1.0", pytest.approx(0.20)),  # in the folders' order
        ("1.0", "s2", "orb 1.0", pytest.approx(0.40)),
        ("2.0", "s1", "orb 2.0", pytest.approx(0.15)),
        ("2.0", "s2", "orb 2.0", pytest.approx(0.25)),
    ]
    assert main(["report", str(root), "--align", "none", "--no-progress"]) == 0
    said = capsys.readouterr().out
    ranked = said[said.index("Ranking") : said.index("Per algorithm and sequence")]
    assert re.search(r"1 +orb 2\.0 +1\.00", ranked), ranked
    assert re.search(r"2 +orb 1\.0 +2\.00", ranked), ranked


def test_a_kitti_run_without_times_or_rate_is_said_with_the_flags_of_its_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A KITTI run without times files or input_rate_hz, its limits counted one frame a
    second: the text report says so once, with the flags that set them (it named the
    fields, end_tolerance_s, which `report` has no flag of)."""
    _, _, manifest = write_kitti_run(tmp_path)
    assert main(["report", str(manifest)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.count("states no input_rate_hz") == 1
    assert "(--end-tolerance, --coverage-gap) are counted one frame a second" in out


def test_a_manifest_entry_whose_folder_is_missing_fails_its_run_alone(
    runs_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A [[runs]] entry naming a deleted trial stopped the report of every run, even with
    --allow-partial; it fails alone as a broken meta.json does (bench does the same). Its
    error names the entry once: it said "run X (m.toml [[runs]] #4): m.toml [[runs]] #4: ..."."""
    shutil.rmtree(runs_copy / "dvo" / "fr1_xyz" / "trial_2")
    manifest = str(runs_copy / "runs.toml")
    folder = runs_copy / "dvo" / "fr1_xyz" / "trial_2"
    said = f"{manifest} [[runs]] #4: `path` {folder} is not a run folder (no such directory)"
    assert main(["report", manifest, "--no-progress", "--quiet"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line == f"ERROR: run dvo/fr1_xyz/trial_2: {said}; --allow-partial reports the others"
    partial = _report_json(capsys, manifest, "--allow-partial")
    assert len(partial["runs"]) == 17  # type: ignore[arg-type]
    assert partial["notes"][0].startswith(  # type: ignore[index]
        f"1 of 18 runs has no report: it failed to evaluate (dvo/fr1_xyz/trial_2: "
        f"FormatError: {said}"
    )


def test_warnings_alike_about_many_folders_are_one_line_naming_three(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """30 folders holding only a timing log: one warning line, the first three named.

    WHY: a raw tree of 2,010 runs printed 1,002 warning lines, 1,000 of them alike.
    Four alike (fewer than ``ALIKE``) are still said one by one.
    """
    make_tree(tmp_path, trials=2)
    crashed = [tmp_path / "crashy" / "MH_01" / f"{k:02d}" for k in range(30)]
    few = [tmp_path / "few" / f"{k}" for k in range(4)]
    for folder in (*crashed, *few):
        folder.mkdir(parents=True)
        (folder / "timing.csv" if folder in crashed else folder / "tracking.csv").write_text(
            "stamp,latency\n0.0,0.01\n"
        )
    assert main(["report", str(tmp_path), "--no-progress", "--quiet"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 + 4
    what = (
        "holds timing.csv but no estimate.<ext> or meta.json: not a run, and not counted "
        "(a run that wrote no estimate counts as failed with a meta.json)"
    )
    assert lines[0] == f"WARNING: {crashed[0]}, {crashed[1]}, {crashed[2]} and 27 more: {what}"
    assert [line.split(": ")[1] for line in lines[1:]] == [str(f) for f in few]


def test_folders_named_with_a_colon_and_space_are_named_whole_in_the_grouped_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Six crashed trials, each a folder ``run: 1``: the line names ``.../run: 1``.

    WHY: the file was the text up to its first ``": "``: ``.../MH_00/run, .../MH_01/run,
    .../MH_02/run and 3 more: 1: holds timing.csv ...``, six folders that do not exist.
    """
    make_tree(tmp_path, trials=2)
    crashed = [tmp_path / "crashy" / f"MH_0{k}" / "run: 1" for k in range(6)]
    for folder in crashed:
        folder.mkdir(parents=True)
        (folder / "timing.csv").write_text("stamp,latency\n0.0,0.01\n")
    assert main(["report", str(tmp_path), "--no-progress", "--quiet"]) == 0
    what = (
        "holds timing.csv but no estimate.<ext> or meta.json: not a run, and not counted "
        "(a run that wrote no estimate counts as failed with a meta.json)"
    )
    lines = capsys.readouterr().err.splitlines()
    assert lines == [f"WARNING: {crashed[0]}, {crashed[1]}, {crashed[2]} and 3 more: {what}"]
