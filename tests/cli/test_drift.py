"""``robot-msgs drift``: the KITTI protocol by default, rpg's on request."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from robot_msgs.cli import main
from robot_msgs.errors import DataWarning
from robot_msgs.io.result_files import load_result
from tests.cli.evaluation_files import line_positions, stats_of, write_kitti, write_tum


def _kitti_pair(tmp_path: Path, scale: float) -> tuple[Path, Path]:
    x = np.arange(301.0)
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(x * scale))
    return ref, est


def test_kitti_protocol_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, est = _kitti_pair(tmp_path, 1.02)
    assert main(["drift", str(ref), str(est), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["metric"] == "kitti_drift"
    assert stats_of(result)["translation_pct"]["mean"] == pytest.approx(
        (20 * 2.02 + 10 * 2.01) / 30
    )
    assert result["settings"]["align"] == "none"
    assert result["parameters"]["lengths_m"] == [100, 200, 300, 400, 500, 600, 700, 800]
    assert result["counts"]["segments"] == 30


def test_a_length_without_segments_is_strict_json_null(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = _kitti_pair(tmp_path, 1.02)
    assert main(["drift", str(ref), str(est), "--lengths", "100,1000", "--json"]) == 0
    text = capsys.readouterr().out

    def refuse(token: str) -> object:
        msg = f"non-standard JSON token {token}"
        raise AssertionError(msg)

    result = json.loads(text, parse_constant=refuse)
    assert stats_of(result)["translation_pct@1000m"]["n"] == 0
    assert stats_of(result)["translation_pct@1000m"]["rms"] is None


def test_kitti_lengths_and_step_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, est = _kitti_pair(tmp_path, 1.02)
    assert main(["drift", str(ref), str(est), "--lengths", "100", "--step", "1"]) == 0
    out = capsys.readouterr().out
    assert "settings:  --lengths 100 --step 1\n" in out
    assert "segments 200" in out


def test_rpg_protocol_defaults_to_sim3_and_one_to_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = np.arange(101.0)
    positions = np.stack([t, np.sin(t / 3), 0 * t], axis=1)
    ref = write_tum(tmp_path / "gt.tum", t, positions)
    est = write_tum(tmp_path / "est.tum", t, 0.5 * positions)
    assert (
        main(["drift", str(ref), str(est), "--protocol", "rpg", "--lengths", "10", "--json"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["metric"] == "relative_error"
    assert result["settings"]["align"] == "sim3"
    assert result["settings"]["sync"] == "one_to_one"
    assert result["settings"]["max_diff_s"] == 0.02
    assert stats_of(result)["translation@10m"]["max"] < 1e-9


def _rpg_on_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[str, str]:
    """Run rpg drift with ``flags`` on a 100 m line run 1 % long; its settings line, its output."""
    t = np.arange(0.0, 100.5, 0.5)
    ref = write_tum(tmp_path / "gt.tum", t, line_positions(t))
    est = write_tum(tmp_path / "est.tum", t, line_positions(1.01 * t))
    argv = ["drift", str(ref), str(est), "--protocol", "rpg", *flags, "--align", "none"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    return next(line for line in out.splitlines() if "settings:" in line), out


def test_rpg_default_fractions_within_a_time_range_are_not_said_as_given_lengths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lengths of rpg's default fractions of the 50 m in range (5..25 m) are a default."""
    settings, _ = _rpg_on_a_line(tmp_path, capsys, "--t-start", "20", "--t-end", "70")
    assert settings.split() == ["settings:", "--align", "none", "--t-start", "20", "--t-end", "70"]


def test_rpg_given_fractions_are_said_without_the_lengths_they_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.2 and 0.4 of the 100 m path are 20 and 40 m: no --lengths, refused beside --fractions."""
    settings, out = _rpg_on_a_line(tmp_path, capsys, "--fractions", "0.2", "0.4")
    assert settings.split() == ["settings:", "--fractions", "0.2,0.4", "--align", "none"]
    assert "translation@20m" in out
    assert "translation@40m" in out


@pytest.mark.parametrize("protocol", ["kitti", "rpg"])
def test_alignment_window_and_gap_flags_reach_both_protocols(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], protocol: str
) -> None:
    ref, est = _kitti_pair(tmp_path, 1.02)
    flags = ["--protocol", protocol, "--lengths", "100", "--align", "origin"]
    flags += ["--align-window", "10", "20", "--sync", "interpolate", "--max-gap", "3"]
    assert main(["drift", str(ref), str(est), *flags, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["settings"]["align_window_s"] == [10.0, 20.0]
    assert result["settings"]["max_gap_s"] == 3.0
    assert any("origin alignment fitted on 1 pose" in note for note in result["notes"])


def test_plot_shows_segment_errors(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    ref, est = _kitti_pair(tmp_path, 1.02)
    png = tmp_path / "drift.png"
    assert main(["drift", str(ref), str(est), "--plot", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_short_path_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    x = np.arange(51.0)
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(1.01 * x))  # not REF: no warning
    assert main(["drift", str(ref), str(est)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"ERROR: {est}: No KITTI segment fits")


def test_segment_flags_the_protocol_would_ignore_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = _kitti_pair(tmp_path, 1.0)
    argv = ["drift", str(ref), str(est)]
    assert main([*argv, "--fractions", "0.1"]) == 2
    assert capsys.readouterr().err.startswith(
        "ERROR: --fractions 0.1: expected protocol 'rpg' (kitti takes lengths in metres)"
    )
    assert main([*argv, "--protocol", "rpg", "--step", "5"]) == 2
    assert capsys.readouterr().err.startswith(
        "ERROR: --step 5: expected protocol 'kitti' (rpg starts a segment at every frame)"
    )
    assert main([*argv, "--protocol", "rpg", "--fractions", "0.1", "--lengths", "50"]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --fractions 0.1: expected lengths or fractions, not both, got tuple (0.1,)\n"
    )


@pytest.mark.parametrize(
    ("flags", "error"),
    [
        (["--step", "0"], "--step 0: expected int >= 1 and <= 1000000000, got int 0"),
        (["--lengths", "100,-5"], "--lengths 100,-5: expected float >= 0.001, got float -5.0"),
        # 1e-320 m (1 / 1e-320 is infinite) let NumPy's overflow warning out and gave n = 0.
        (["--lengths", "100,0.0005"], "--lengths 100,0.0005: expected float >= 0.001, got"),
        # echoed "--lengths 9.99989e-321" (:g's six digits of a subnormal, exact too)
        (["--lengths", "1e-320"], "--lengths 1e-320: expected float >= 0.001, got float 1e-320"),
        (
            ["--lengths", "100,200,100"],
            "--lengths 100,200,100: expected distinct segment lengths (100 m twice)",
        ),
        (
            ["--protocol", "rpg", "--fractions", "0,0.1"],
            "--fractions 0,0.1: expected float > 0, got float 0.0",
        ),
    ],
)
def test_a_bad_segment_flag_is_one_error_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], error: str
) -> None:
    ref, est = _kitti_pair(tmp_path, 1.0)
    assert main(["drift", str(ref), str(est), *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {error}")
    assert len(err.splitlines()) == 1


def test_a_fraction_whose_length_overflows_is_one_error_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was "ERROR: a bug in robot_msgs (OverflowError: cannot convert float infinity to
    # integer)": 1.7e308 of the 300 m path is past float64.
    ref, est = _kitti_pair(tmp_path, 1.0)
    argv = ["drift", str(ref), str(est), "--protocol", "rpg", "--align", "none"]
    assert main([*argv, "--fractions", "1.7e308"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"ERROR: --fractions 1.7e+308: {est}: expected finite segment lengths > 0 metres, got [inf]\n"
    )


def test_lengths_that_are_not_numbers_are_named_with_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = _kitti_pair(tmp_path, 1.0)
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["drift", str(ref), str(est), "--lengths", "100m"])
    assert (
        "argument --lengths: expected numbers separated by spaces or commas, as 100 200, "
        "got '100m'" in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "words", [["0.5", "1"], ["0.5,1"], ["0.5,", "1"], ["0.5", "1", "--step", "10"], ["0.5 1"]]
)
def test_lengths_take_spaces_as_delta_does_and_commas(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], words: list[str]
) -> None:
    """An evo user types ``--lengths 0.5 1`` as ``--delta 1 2``: it said "unrecognized
    arguments: 1"; both forms give the same segments."""
    ref, est = _kitti_pair(tmp_path, 1.0)
    assert main(["drift", str(ref), str(est), "--lengths", *words]) == 0
    out = capsys.readouterr().out
    assert "--lengths 0.5,1" in out
    assert "translation_pct@0.5m" in out
    assert "translation_pct@1m" in out


def test_a_file_taken_in_the_lengths_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = _kitti_pair(tmp_path, 1.0)
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["drift", str(ref), "--lengths", "100", str(est)])
    err = capsys.readouterr().err
    assert f"{str(est)!r} is a file: --lengths takes every word up to the next flag" in err


def test_the_kitti_table_leads_with_the_published_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """KITTI's devkit publishes the mean over segments: it is the first figure shown."""
    ref, est = _kitti_pair(tmp_path, 1.02)
    assert main(["drift", str(ref), str(est)]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if line.startswith("signal"))
    assert header.split()[:5] == ["signal", "unit", "n", "mean", "rms"]
    row = next(line for line in lines if line.startswith("translation_pct "))
    # 20 segments of 100 m read 2.02 % too long, 10 read 2.01 % (by hand, as above)
    assert float(row.split()[3]) == pytest.approx((20 * 2.02 + 10 * 2.01) / 30, rel=1e-5)


@pytest.mark.parametrize(
    ("flags", "title", "mean"),
    [
        # 100 m segments drive 101 m, 200 m ones 201 m, 2 % too long (by hand, as above)
        ([], "KITTI drift (devkit segments)", (20 * 2.02 + 10 * 2.01) / 30),
        (["--per-actual-length"], "KITTI drift (devkit segments, per actual length)", 2.0),
    ],
)
def test_the_kitti_table_title_says_the_divisor(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    title: str,
    mean: float,
) -> None:
    """``--per-actual-length`` was titled "KITTI drift (devkit segments)" alone, the
    devkit's nominal length, over errors divided by the path each segment drove."""
    ref, est = _kitti_pair(tmp_path, 1.02)
    assert main(["drift", str(ref), str(est), *flags]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == title
    assert len(title) <= 80
    row = next(line for line in lines if line.startswith("translation_pct "))
    assert float(row.split()[3]) == pytest.approx(mean, rel=1e-5)


def test_drift_help_says_percent_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["drift", "--help"])
    out = capsys.readouterr().out
    assert "%%" not in out
    assert "translation error in % and rotation error in deg/m" in " ".join(out.split())


def test_drift_help_says_what_its_plot_draws(capsys: pytest.CaptureFixture[str]) -> None:
    # drift's --plot was helped as ape's: "trajectories coloured by error and error over
    # time (rms, mean, median)"; its figure is each segment length's error over the
    # segments' starts beside the uncoloured trajectories, and drift takes one estimate
    # (no {name}, no JSON list).
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["drift", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "coloured by error and error over time" not in out
    assert "translation error per segment over the segment's start" in out
    assert "several estimates" not in out


def test_confidence_is_not_a_flag_of_drift(capsys: pytest.CaptureFixture[str]) -> None:
    """Drift has no NEES: `drift --confidence` was listed in --help and taken in silence."""
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["drift", "--help"])
    assert "--confidence" not in capsys.readouterr().out


def test_the_fields_rpg_changes_are_those_rpg_settings_change() -> None:
    # drift --help notes them from a constant, to import no settings class.
    from robot_msgs.cli.drift import RPG_CHANGED
    from robot_msgs.evaluation.settings import RPG_SETTINGS, EvaluationSettings

    default = EvaluationSettings()
    changed = {k for k, v in RPG_SETTINGS.record().items() if v != getattr(default, k)}
    assert set(RPG_CHANGED) == changed


def _results_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A devkit layout: poses/00.txt, 01.txt and results/vo/data/00.txt, 01.txt.

    00: 301 frames along x, the estimate 2 % long: 20 segments of 2.02 % and 10 of 2.01 %
    (segments end one frame past their length). 01: 201 frames, 5 % long: only the 10
    segments of 100 m, each 5.05 %. Rotations are identities: 0 deg/m.
    """
    poses, data = tmp_path / "poses", tmp_path / "results" / "vo" / "data"
    poses.mkdir()
    data.mkdir(parents=True)
    x0, x1 = np.arange(301.0), np.arange(201.0)
    write_kitti(poses / "00.txt", line_positions(x0))
    write_kitti(data / "00.txt", line_positions(x0 * 1.02))
    write_kitti(poses / "01.txt", line_positions(x1))
    write_kitti(data / "01.txt", line_positions(x1 * 1.05))
    return poses, data.parent


def test_a_devkit_results_folder_is_a_row_a_sequence_and_the_devkits_mean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`drift poses/ results/vo/` took one file pair only ('is a directory'): a KITTI
    user's 11 sequences needed a loop and their average by hand."""
    poses, results = _results_folder(tmp_path)
    assert main(["drift", str(poses), str(results), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    seq0 = (20 * 2.02 + 10 * 2.01) / 30
    rows = {s["sequence"]: s for s in table["sequences"]}
    assert rows["00"]["segments"] == 30
    assert rows["00"]["translation_pct"] == pytest.approx(seq0)
    assert rows["01"]["segments"] == 10
    assert rows["01"]["translation_pct"] == pytest.approx(5.05)
    assert rows["01"]["rotation_deg_per_m"] == pytest.approx(0.0, abs=1e-12)
    # The devkit's figure pools every segment: (30 x seq0 + 10 x 5.05) / 40.
    assert table["all"]["segments"] == 40
    assert table["all"]["translation_pct"] == pytest.approx((30 * seq0 + 10 * 5.05) / 40)
    assert table["mean_of_sequences"]["translation_pct"] == pytest.approx((seq0 + 5.05) / 2)
    assert table["settings"]["align"] == "none"
    # Per length over both (the devkit's avg plots): 100 m, 00's 20 of 2.02 % and 01's 10
    # of 5.05 %; 200 m, 00's 10 of 2.01 %; no longer segment.
    lengths = [(r["length_m"], r["segments"], r["translation_pct"]) for r in table["lengths"]]
    assert lengths == [
        (100.0, 30, pytest.approx((20 * 2.02 + 10 * 5.05) / 30)),
        (200.0, 10, pytest.approx(2.01)),
    ]
    # The devkit writes its stats.txt beside data/: results/vo/ still means data/.
    (results / "stats.txt").write_text("0.013 0.0001\n")
    assert main(["drift", str(poses), str(results), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == table
    # results/vo/data/ given itself reads the same; the text has a row each.
    assert main(["drift", str(poses), str(results / "data")]) == 0
    out = capsys.readouterr().out
    for row in ("00", "01", "all (devkit)", "mean of sequences"):
        assert f"\n{row} " in out
    assert "\nsettings:  the defaults\n" in out
    # Figures aligned per sequence say so, as the one-pair table does.
    assert main(["drift", str(poses), str(results), "--align", "origin", "--lengths", "100"]) == 0
    assert "\nsettings:  --lengths 100 --align origin\n" in capsys.readouterr().out
    said = [line for line in out.splitlines() if not line.startswith(("reference:", "estimate:"))]
    assert max(len(line) for line in said) <= 80


def test_a_folder_named_with_an_escape_sequence_is_escaped_in_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every file is untrusted: a ground-truth folder named with ESC [2J (clear the
    screen) was printed raw on the table's 'reference:' line, where the one-pair table
    and every ERROR and WARNING line escape names."""
    poses, results = _results_folder(tmp_path)
    named = poses.rename(tmp_path / "\x1b[2J")
    assert main(["drift", str(named), str(results)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "reference: " + str(tmp_path / "\\x1b[2J") + "\n" in out


def test_a_results_folder_missing_a_sequence_is_refused_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The devkit refuses a results folder short of a sequence; an average over the others
    would not be comparable."""
    poses, results = _results_folder(tmp_path)
    (results / "data" / "01.txt").unlink()
    assert main(["drift", str(poses), str(results)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"ERROR: {results / 'data' / '01.txt'} is missing")
    # Estimates without ground truth (a submission's test sequences) are left out, said.
    write_kitti(results / "data" / "01.txt", line_positions(np.arange(201.0) * 1.05))
    for k in (11, 12):
        write_kitti(results / "data" / f"{k}.txt", line_positions(np.arange(201.0)))
    assert main(["drift", str(poses), str(results), "--json"]) == 0
    captured = capsys.readouterr()
    assert [s["sequence"] for s in json.loads(captured.out)["sequences"]] == ["00", "01"]
    expected = (
        f"WARNING: {results / 'data'}: 2 estimates without ground truth in {poses} "
        "(11 .. 12) left out, as the devkit evaluates the sequences it has poses of"
    )
    assert captured.err.splitlines() == [expected]
    # Eleven sequences missing at once are not eleven clauses of one line.
    for k in range(2, 11):
        write_kitti(poses / f"{k:02d}.txt", line_positions(np.arange(201.0)))
    assert main(["drift", str(poses), str(results)]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(
        f"ERROR: {results / 'data' / '02.txt'} is missing (ground truth {poses / '02.txt'}), "
        f"{results / 'data' / '03.txt'} is missing (ground truth {poses / '03.txt'}) "
        "and 7 more: the devkit refuses"
    )


def test_folders_with_the_rpg_protocol_are_refused_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`drift poses/ results/ --protocol rpg` said 'poses: is a directory, not a trajectory
    file' beside a KITTI folder that `drift poses/ results/` reads."""
    poses, results = _results_folder(tmp_path)
    assert main(["drift", str(poses), str(results), "--protocol", "rpg"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: --protocol rpg: one file pair only; folders of sequences (poses/, "
        "results/<name>/data/) are the KITTI devkit's"
    )


def test_a_results_folder_with_a_sequence_cut_short_is_refused_as_the_devkit_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An estimate of 150 of its 201 frames (a method that lost track) was scored on the
    frames it kept, its row beside the others and in the pooled mean; the devkit refuses
    a result of another pose count than its ground truth."""
    poses, results = _results_folder(tmp_path)
    write_kitti(results / "data" / "01.txt", line_positions(np.arange(150.0)))
    assert main(["drift", str(poses), str(results)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    said = [line for line in captured.err.splitlines() if line.startswith("ERROR:")]
    expected = (
        f"ERROR: {results / 'data' / '01.txt'}: 150 poses, its ground truth "
        f"{poses / '01.txt'} 201: the devkit refuses a sequence not of one pose a frame (a "
        "method that lost track scored on the frames it kept); evaluate that file pair "
        "alone to see it"
    )
    assert said == [expected]


@pytest.mark.evo_data
def test_a_results_folder_of_kitti_00_halves_gives_the_devkits_pooled_figure(
    tmp_path: Path, evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """KITTI 00 cut in two sequences (ORB-SLAM estimate): each row and the pooled mean are
    the devkit's arithmetic (tests.evaluation.test_drift's 64-bit replay, rotation blocks
    projected onto SO(3) as the default reads them)."""
    from tests.evaluation.test_drift import _devkit_means

    def poses(name: str) -> np.ndarray:
        rows = np.loadtxt(evo_data / name).reshape(-1, 3, 4)
        out = np.tile(np.eye(4), (rows.shape[0], 1, 1))
        out[:, :3, :] = rows
        u, _, vt = np.linalg.svd(rows[:, :, :3])
        out[:, :3, :3] = u @ vt
        return out

    gt, est = poses("KITTI_00_gt.txt"), poses("KITTI_00_ORB.txt")
    (tmp_path / "poses").mkdir()
    (tmp_path / "data").mkdir()
    cuts = {"00": slice(0, 2500), "01": slice(2500, None)}
    for name, cut in cuts.items():
        for folder, whole in (("poses", gt), ("data", est)):
            rows = whole[cut, :3, :].reshape(-1, 12)
            np.savetxt(tmp_path / folder / f"{name}.txt", rows, fmt="%.17g")
    assert main(["drift", str(tmp_path / "poses"), str(tmp_path / "data"), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    expected = [_devkit_means(gt[cut], est[cut]) for cut in cuts.values()]
    for row, (t_pct, n, r_deg_per_m) in zip(table["sequences"], expected, strict=True):
        assert row["segments"] == n
        assert row["translation_pct"] == pytest.approx(t_pct, rel=1e-10)
        assert row["rotation_deg_per_m"] == pytest.approx(r_deg_per_m, rel=1e-10)
    total = sum(n for _, n, _ in expected)
    assert table["all"]["segments"] == total
    pooled_t = sum(t * n for t, n, _ in expected) / total
    pooled_r = sum(r * n for _, n, r in expected) / total
    assert table["all"]["translation_pct"] == pytest.approx(pooled_t, rel=1e-10)
    assert table["all"]["rotation_deg_per_m"] == pytest.approx(pooled_r, rel=1e-10)
    # Per length over both halves, as the devkit's saveErrorPlots(total_err, ..., "avg")
    # (avg_tl, avg_rl): each length's segments of every sequence, t in %.
    by_length = [
        _devkit_length_mean(gt[cut], est[cut], length)
        for length in range(100, 900, 100)
        for cut in cuts.values()
    ]
    for k, row in enumerate(table["lengths"]):
        (t0, n0), (t1, n1) = by_length[2 * k], by_length[2 * k + 1]
        assert row["length_m"] == 100.0 * (k + 1)
        assert row["segments"] == n0 + n1
        assert row["translation_pct"] == pytest.approx((t0 * n0 + t1 * n1) / (n0 + n1), rel=1e-10)


def _devkit_length_mean(gt: np.ndarray, est: np.ndarray, length: float) -> tuple[float, int]:
    """The devkit's mean translation error (%) of one segment length, and its count.

    evaluate_odometry.cpp's rules, written apart from robot_msgs: a segment starts every
    10th frame and ends at the first frame whose distance exceeds start + length.
    """
    step = gt[1:, :3, 3] - gt[:-1, :3, 3]
    dist = np.concatenate(([0.0], np.cumsum(np.sqrt((step * step).sum(axis=1)))))
    errors = []
    for first in range(0, len(gt), 10):
        beyond = np.flatnonzero(dist > dist[first] + length)
        if beyond.size:
            d_gt = np.linalg.inv(gt[first]) @ gt[beyond[0]]
            d_est = np.linalg.inv(est[first]) @ est[beyond[0]]
            errors.append(float(np.linalg.norm((np.linalg.inv(d_est) @ d_gt)[:3, 3])) / length)
    return 100.0 * float(np.mean(errors)), len(errors)


def test_a_results_folders_rounded_rotation_blocks_are_said_once_in_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every KITTI file's blocks are off SO(3) by the rounding of 7 printed digits: 11
    sequences said so in 22 warnings above the table. The first is shown, then the
    others alike, grouped as report groups warnings alike about many files (from
    report.text.ALIKE files on: 5 of the 6 here)."""
    poses, results = _results_folder(tmp_path)
    for folder in (poses, results / "data"):
        write_kitti(folder / "02.txt", line_positions(np.arange(201.0)))
    for path in sorted(poses.glob("*.txt")) + sorted((results / "data").glob("*.txt")):
        # 0.99999994 on the diagonal, as KITTI 00's first row: |R Rᵀ - I| 1.2e-7.
        text = path.read_text().replace("1 0 0 ", "0.99999994 0 0 ")
        path.write_text(text.replace(" 0 1 0 ", " 0 0.99999994 0 "))
    assert main(["drift", str(poses), str(results)]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("WARNING")]
    assert len(said) == 2
    assert said[0].startswith(f"WARNING: {poses / '00.txt'}: ")
    assert "rotation blocks off orthonormal by rounding" in said[0]
    assert said[1] == (
        f"WARNING: {results / 'data' / '00.txt'}, {poses / '01.txt'}, "
        f"{results / 'data' / '01.txt'} and 2 more: rotation blocks likewise off orthonormal "
        "by rounding: made orthonormal"
    )


@pytest.mark.parametrize("side", ["poses", "data"])
@pytest.mark.parametrize("kind", ["fifo", "directory", "link loop"])
def test_a_sequence_file_that_is_no_regular_file_is_refused_naming_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], side: str, kind: str
) -> None:
    """A FIFO, a folder or a looping link named 02.txt in poses/ left sequence 02 out of
    the table and both means without a word; in results/ it was said to be missing."""
    import os

    poses, results = _results_folder(tmp_path)
    for folder in (poses, results / "data"):
        write_kitti(folder / "02.txt", line_positions(np.arange(201.0)))
    odd = (poses if side == "poses" else results / "data") / "02.txt"
    odd.unlink()
    if kind == "fifo":
        os.mkfifo(odd)
        said = "a pipe (FIFO)"
    elif kind == "directory":
        odd.mkdir()
        said = "a directory"
    else:
        odd.symlink_to(odd)
        said = "a path that cannot be looked at (Too many levels of symbolic links)"
    assert main(["drift", str(poses), str(results)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    expected = (
        f"ERROR: {odd}: expected a sequence's poses in a regular file, got {said}: not read "
        "(a pipe would wait for a writer)"
    )
    assert captured.err.splitlines() == [expected]


def test_a_sequence_shorter_than_every_length_counts_no_segments_as_the_devkits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One sequence of 49 m stopped the whole folder ('No KITTI segment fits'), where the
    devkit's calcSequenceErrors finds no segment of it and averages the others'."""
    poses, results = _results_folder(tmp_path)
    write_kitti(poses / "02.txt", line_positions(np.arange(50.0)))
    write_kitti(results / "data" / "02.txt", line_positions(np.arange(50.0) * 1.5))
    assert main(["drift", str(poses), str(results), "--json"]) == 0
    captured = capsys.readouterr()
    table = json.loads(captured.out)
    seq0 = (20 * 2.02 + 10 * 2.01) / 30
    assert table["sequences"][2] == {
        "sequence": "02",
        "frames": 50,
        "segments": 0,
        "translation_pct": None,
        "rotation_deg_per_m": None,
    }
    # 00's 30 segments and 01's 10, as without 02: the devkit's mean over 40.
    assert table["all"]["segments"] == 40
    assert table["all"]["translation_pct"] == pytest.approx((30 * seq0 + 10 * 5.05) / 40)
    assert table["mean_of_sequences"]["translation_pct"] == pytest.approx((seq0 + 5.05) / 2)
    said = (
        f"WARNING: {results / 'data' / '02.txt'}: no KITTI segment fits its ground truth "
        f"{poses / '02.txt'}, a path not longer than any segment length: counted as no "
        "segments, as the devkit counts it, and in neither mean"
    )
    assert captured.err.splitlines() == [said]
    assert main(["drift", str(poses), str(results)]) == 0
    assert "\n02                     50         0      nan          nan       nan\n" in (
        capsys.readouterr().out
    )
    # Every sequence short: nothing to average, the one pair's error.
    for name in ("00", "01"):
        for folder in (poses, results / "data"):
            write_kitti(folder / f"{name}.txt", line_positions(np.arange(50.0)))
    assert main(["drift", str(poses), str(results)]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"ERROR: {results / 'data' / '00.txt'}: No KITTI segment fits")


def test_one_estimate_left_out_is_said_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """'1 estimate(s)': the package says its counts with report.text.counted ('1 run',
    '2 runs'), as every other summary."""
    poses, results = _results_folder(tmp_path)
    (poses / "01.txt").unlink()
    assert main(["drift", str(poses), str(results)]) == 0
    said = (
        f"WARNING: {results / 'data'}: 1 estimate without ground truth in {poses} (01.txt) "
        "left out, as the devkit evaluates the sequences it has poses of"
    )
    assert capsys.readouterr().err.splitlines() == [said]


def test_a_results_folders_json_names_its_figures_and_settings_as_the_one_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The folder's JSON said rotation_deg_per_100m beside the one pair's
    rotation_deg_per_m, and a 'settings' of the changed fields only where the one pair's
    is the whole message (with the segment 'parameters' beside it)."""
    poses, results = _results_folder(tmp_path)
    flags = ["--json", "--align", "origin", "--step", "5"]
    assert main(["drift", str(poses), str(results), *flags]) == 0
    table = json.loads(capsys.readouterr().out)
    assert main(["drift", str(poses / "00.txt"), str(results / "data" / "00.txt"), *flags]) == 0
    one = json.loads(capsys.readouterr().out)
    assert list(table) == [
        "metric",
        "settings",
        "parameters",
        "sequences",
        "all",
        "mean_of_sequences",
        "lengths",
    ]
    assert table["settings"] == one["settings"]
    assert (
        table["parameters"]
        == one["parameters"]
        == {
            "lengths_m": [100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0],
            "step_frames": 5,
        }
    )
    quantities = {s["quantity"] for s in one["signals"]}
    assert quantities == {"translation_pct", "rotation_deg_per_m"}
    for row in [*table["sequences"], table["all"], table["mean_of_sequences"]]:
        assert set(row) - {"sequence", "frames", "segments"} == quantities
    assert [row["length_m"] for row in table["lengths"]] == [100.0, 200.0]


@pytest.mark.evo_data
def test_rpg_with_repeated_stamps_all_pairs_every_row_as_rpg(
    evo_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``drift --protocol rpg --repeated-stamps all`` reads EuRoC V1_02 as rpg does (every
    row, V102.txt's 4 repeated stamps too): rpg's relative error as replayed from the raw
    files by tests/data/make_rpg_repeated_stamps_reference.py, 690 segments of 7.58 m and
    a translation rmse of 0.1217561 m (688 and 0.1215510 m with the first row of each
    stamp, the default). It was refused ("which only `ape` and `rpe` take"); its `--plot`
    then rebuilt the matched estimate as a trajectory ("Expected strictly increasing
    stamps")."""
    want = json.loads(
        (
            Path(__file__).resolve().parents[1] / "data" / "rpg_repeated_stamps_reference.json"
        ).read_text(encoding="utf-8")
    )["relative_error_sim3"]
    argv = ["drift", str(evo_data / "V102_groundtruth.csv"), str(evo_data / "V102.txt")]
    argv += ["--protocol", "rpg", "--repeated-stamps", "all", "--json"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["counts"]["matched"] == 798  # rpg's matches (794: the first rows only)
    stats = stats_of(result)
    assert want["7.58"]["segments"] == 690
    for length in want.values():
        got = stats[f"translation@{length['length_m']:g}m"]
        assert got["n"] == length["segments"]
        assert got["rms"] == pytest.approx(length["translation_rmse_m"], abs=1e-9)
    assert result["counts"]["segments"] == sum(v["segments"] for v in want.values())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main([*argv[:-1], "--plot", str(tmp_path / "drift.png")]) == 0
    assert (tmp_path / "drift.png").stat().st_size > 0
    # Saved, it loads back (it was refused: "neither the result nor the aligned estimate
    # saved"), its 798 matched rows and rpg's figures kept; the aligned estimate is
    # V102.txt's 807 rows, the 4 repeated stamps twice each.
    saved, aligned = tmp_path / "rpg.npz", tmp_path / "aligned.tum"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        argv = [*argv[:-1], "--save", str(saved), "--save-aligned", str(aligned)]
        assert main(argv) == 0
    loaded = load_result(saved)
    assert len(loaded.reference) == 798
    assert loaded.estimate.stamps_repeat  # rpg pairs the estimate's rows of a stamp
    got = loaded.stats["translation@7.58m"]
    assert got.rms == pytest.approx(want["7.58"]["translation_rmse_m"], abs=1e-9)
    stamps = [line.split()[0] for line in aligned.read_text().splitlines() if line[0] != "#"]
    assert (len(stamps), len(set(stamps))) == (807, 803)


@pytest.mark.evo_data
def test_rpg_repeated_stamps_all_is_said_on_the_settings_line(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ``settings:`` line said ``--align posyaw`` alone beside rpg's 798 matches of
    EuRoC V1_02 (``n_matches`` of tests/data/rpg_repeated_stamps_reference.json, replayed
    from rpg's associate()), which the defaults' one row a stamp make 794: the reading
    rules are not the comparison's settings, so the line never said them."""
    want = json.loads(
        (
            Path(__file__).resolve().parents[1] / "data" / "rpg_repeated_stamps_reference.json"
        ).read_text(encoding="utf-8")
    )
    argv = ["drift", str(evo_data / "V102_groundtruth.csv"), str(evo_data / "V102.txt")]
    argv += ["--protocol", "rpg", "--align", "posyaw", "--repeated-stamps", "all"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main(argv) == 0
    out = capsys.readouterr().out
    assert "\nsettings:  --align posyaw --repeated-stamps all\n" in out
    assert f"matched {want['n_matches']}," in out
    # The rule the protocol keeps unset (the first row) is no setting given.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main([*argv[:-1], "first"]) == 0
    assert "\nsettings:  --align posyaw\n" in capsys.readouterr().out


def test_seconds_are_titled_and_united_within_80_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``drift --seconds 1`` (trajectopy's RPE per second): titled as its divisor, its
    signals in m/s and deg/s here and in ``res`` of the saved result. The means are
    trajectopy 5.1.2's (``tests/data/trajectopy_rpe_seconds_reference.json``) as printed
    to 6 digits."""
    reference = (
        Path(__file__).resolve().parents[1] / "data" / "trajectopy_rpe_seconds_reference.json"
    )
    want = json.loads(reference.read_text(encoding="utf-8"))
    saved = tmp_path / "s.json"
    args = ["example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"]
    args += ["--seconds", "1", "--step", "1", "--sync", "interpolate-estimate"]
    assert main(["drift", *args, "--max-diff", "0", "--max-gap", "10", "--save", str(saved)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "drift per second (segments in seconds, per actual interval)"
    assert max(map(len, lines)) <= 80
    for name, unit in (("translation_m_per_s", "m/s"), ("rotation_deg_per_s", "deg/s")):
        row = next(line for line in lines if line.startswith(f"{name} ")).split()
        assert row[1:3] == [unit, str(want["n_pairs"])]
        assert float(row[3]) == pytest.approx(want[name]["mean"], rel=1e-5)
    assert main(["res", str(saved)]) == 0
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) <= 80
    words = out.split()
    assert "m/s" in words
    assert "deg/s" in words
    assert words[words.index("--seconds") + 1] == "1"
    # Beside a drift in metres: --seconds differs (was "not recorded" in the metres one).
    metres = tmp_path / "m.json"
    assert main(["drift", *args[:2], "--lengths", "1", "--save", str(metres)]) == 0
    capsys.readouterr()
    assert main(["res", str(saved), str(metres)]) == 0
    out = capsys.readouterr().out
    assert "--seconds (differs)" in out
    assert "not recorded" not in out


def test_seconds_with_folders_are_refused_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sequences' table is in % and deg/m: ``--seconds`` with folders raised an
    AssertionError (no ``translation_pct``)."""
    poses, results = _results_folder(tmp_path)
    assert main(["drift", str(poses), str(results), "--seconds", "1"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: --seconds: one file pair only, not folders of sequences"
    )


def test_seconds_plot_is_titled_per_second(tmp_path: Path) -> None:
    """drift --seconds --plot titled its m/s "KITTI drift: translation error per segment",
    the devkit's figure in % per segment of path; its title says per second, in m/s, and
    the metres' figure keeps its own."""
    matplotlib = pytest.importorskip("matplotlib")
    args = ["drift", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"]
    svg = tmp_path / "s.svg"
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # the text as text, to read
        assert main([*args, "--seconds", "1", "2", "--plot", str(svg), "--quiet"]) == 0
        text = svg.read_text(encoding="utf-8")
        assert "KITTI drift per second: translation error [m/s]" in text
        assert "translation error per second [m/s]" in text
        assert "per segment" not in text
        metres = tmp_path / "m.svg"
        assert main([*args, "--lengths", "0.5", "--plot", str(metres), "--quiet"]) == 0
        assert "KITTI drift: translation error per segment" in metres.read_text(encoding="utf-8")
