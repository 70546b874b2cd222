"""``robot-msgs doctor``: one line a finding with its fix as flags, --json, --help, no writes."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from robot_msgs.cli import main
from robot_msgs.compare import FINDING_KINDS, Diagnosis
from robot_msgs.evaluation import EvaluationSettings, apply_transforms
from robot_msgs.io import read_trajectory, write_trajectory
from robot_msgs.io.examples import resolve_path
from tests.terminal import Terminal

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

GT = "example:fr1_xyz/groundtruth.tum"
EST = "example:fr1_xyz/rgbdslam.tum"


def _late(tmp_path: Path) -> str:
    est = read_trajectory(resolve_path(EST))
    path = tmp_path / "late.tum"
    write_trajectory(path, est.replace(stamps_s=est.stamps_s - 0.3), "tum")
    return str(path)


def test_text_is_a_header_and_one_line_a_finding_with_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    late = _late(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["doctor", GT, late]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"doctor: {late} against {GT}: 1 warning")
    finding = next(line for line in lines if line.startswith("warning"))
    assert finding.startswith(
        "warning time_offset: the estimate's stamps are 0.3052 s ± 0.004 s early against the "
        "reference's"
    )
    assert finding.endswith("[fix: --offset 0.305209]")
    assert len(lines) == 1 + sum(1 for line in lines[1:] if line.split()[0] in ("info", "warning"))
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # the doctor writes nothing


def test_json_is_the_diagnosis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", GT, _late(tmp_path), "--json"]) == 0
    out = capsys.readouterr().out
    diagnosis = Diagnosis.from_dict(json.loads(out))
    found = diagnosis.finding("time_offset")
    assert found is not None
    assert found.fix == {"offset_s": 0.305209}


def test_settings_flags_reach_the_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor", GT, _late(tmp_path), "--offset", "0.305209"]) == 0
    assert "time_offset" not in capsys.readouterr().out


def test_a_time_range_with_no_reference_pose_is_refused_as_ape_refuses_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``doctor --t-start 1e20`` found nothing wrong (exit 0) where ``ape`` refuses."""
    assert main(["ape", GT, EST, "--t-start", "1e20"]) == 1
    said = capsys.readouterr().err
    assert said.startswith("ERROR: No pose of the reference in the time range")
    assert main(["doctor", GT, EST, "--t-start", "1e20"]) == 1
    assert capsys.readouterr().err == said


def test_check_fails_a_warning_and_passes_its_fix_and_infos(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--check`` is for scripts, as ``traj --check``: 0 whatever was found without it."""
    late = _late(tmp_path)
    assert main(["doctor", GT, late]) == 0
    assert main(["doctor", GT, late, "--check"]) == 1  # the clock offset: a warning
    assert main(["doctor", GT, late, "--check", "--json"]) == 1
    assert main(["doctor", GT, late, "--check", "--offset", "0.305209"]) == 0  # its fix
    assert main(["doctor", GT, EST, "--check"]) == 0  # one info (coverage) passes
    assert "info    coverage" in capsys.readouterr().out


def test_a_mount_is_fixed_by_transform_right_auto(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    est = read_trajectory(resolve_path(EST))
    mount = (0.0, -1.0, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.2, 0.0, 0.0, 0.0, 1.0)
    path = tmp_path / "camera.tum"
    write_trajectory(path, apply_transforms(est, EvaluationSettings(transform_right=mount)), "tum")
    assert main(["doctor", GT, str(path)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "frame_extrinsic" in x)
    assert line.startswith("warning frame_extrinsic: the estimate is a sensor frame")
    assert line.endswith("[fix: --transform-right auto]")


def test_help_lists_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["doctor", "--help"])
    out = capsys.readouterr().out
    for kind in FINDING_KINDS:
        assert f"  {kind}: " in out
    kinds = out.split("kinds:\n")[1].split("\n\n")[0]
    assert max(len(line) for line in kinds.splitlines()) <= 80


def test_readme_table_names_every_kind() -> None:
    """The README's doctor table is where a user looks a kind up; mixed_frames and
    no_orientation were added to FINDING_KINDS and to --help, not to it."""
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("| kind | what it finds |")[1].split("\n\n")[0]
    missing = [kind for kind in FINDING_KINDS if f"`{kind}`" not in table]
    assert missing == []


def test_help_of_repeated_stamps_says_the_reading_rule_chooses_the_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # doctor --help said of repeated_stamps "(the first is kept)"; doctor takes
    # --repeated-stamps last, and its finding then says the last row was kept.
    ref = tmp_path / "ref.tum"
    ref.write_text("".join(f"{t}.0 {t} 0 0 0 0 0 1\n" for t in (0, 1, 1, 2, 3)))
    assert main(["doctor", str(ref), str(ref), "--repeated-stamps", "last"]) == 0
    found = capsys.readouterr().out
    assert "kept the last row of each stamp" in found
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["doctor", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "repeated_stamps: rows that repeat an earlier stamp (one row a stamp kept: the first, "
        "or the last as the reading rule says)"
    ) in out


def test_a_missing_file_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["doctor", GT, str(tmp_path / "none.tum")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: ")
    assert err.count("\n") == 1


def test_ape_takes_sync_spatial_and_transform_right_auto(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    est = read_trajectory(resolve_path(EST))
    path = tmp_path / "hour.tum"
    write_trajectory(path, est.replace(stamps_s=est.stamps_s - 3600.0), "tum")
    argv = ["ape", GT, str(path), "--align", "se3", "--json"]
    assert main([*argv, "--sync", "spatial", "--max-distance", "0.1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["settings"]["sync"] == "spatial"
    assert result["settings"]["max_distance_m"] == 0.1
    assert main(["ape", GT, EST, "--align", "se3", "--json", "--transform-right", "auto"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["settings"]["transform_right_auto"] is True
    assert result["estimated"]["extrinsic"]["_type"] == "compare/Extrinsic"


def test_ape_takes_trajectopys_spatial_pairs_and_rpe_and_doctor_refuse_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = ["--sync", "spatial", "--spatial-pairs", "first"]
    assert main(["ape", GT, EST, "--json", *flags]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["settings"]["spatial_pairs"] == "first"
    assert result["counts"]["matched"] == 625  # trajectopy 5.1.2's pairs on these files
    for command in ("rpe", "doctor"):
        assert main([command, GT, EST, *flags]) == 2
        err = capsys.readouterr().err
        assert err.startswith("ERROR: --spatial-pairs first: expected --spatial-pairs path for")
        assert err.count("\n") == 1


def test_matched_in_space_the_text_names_the_checks_of_stamps_left_unrun(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ground truth 1000 s late, matched in space: "nothing found" was the only line,
    and only ``--json``'s ``checks`` said that no clock, coverage or rate was compared (a
    review). Matched in time, every check ran: no such line."""
    gt = read_trajectory(resolve_path(GT))
    late = tmp_path / "later.tum"
    write_trajectory(late, gt.replace(stamps_s=gt.stamps_s + 1000.0), "tum")
    assert main(["doctor", GT, str(late), "--sync", "spatial"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(": nothing found")
    unrun = "not checked (in space): clock_domain, time_offset, coverage, rate_mismatch"
    assert lines[1:] == [unrun]
    assert len(unrun) <= 80
    assert main(["doctor", GT, str(late), "--sync", "spatial", "--json"]) == 0
    checks = set(json.loads(capsys.readouterr().out)["checks"])
    assert not {"clock_domain", "time_offset", "coverage", "rate_mismatch"} & checks
    assert main(["doctor", GT, _late(tmp_path), "--offset", "0.305209"]) == 0
    assert "not checked" not in capsys.readouterr().out


def test_matched_in_space_offset_auto_is_said_unused_and_ape_skips_its_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rgbdslam 1000 s late, ``--sync spatial --offset auto``: ape searched ±1 s and
    refused ("Cannot estimate a time offset"), where spatial pairing reads no offset; the
    doctor listed time_offset unrun without a word of the flag given."""
    est = read_trajectory(resolve_path(EST))
    late = tmp_path / "later.tum"
    write_trajectory(late, est.replace(stamps_s=est.stamps_s + 1000.0), "tum")
    flags = ["--sync", "spatial", "--offset", "auto"]
    assert main(["doctor", GT, str(late), *flags]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == (
        "not checked (in space): clock_domain, time_offset (--offset auto unused), "
        "coverage, rate_mismatch"
    )
    assert main(["ape", GT, str(late), "--json", *flags]) == 0
    searched = json.loads(capsys.readouterr().out)
    assert main(["ape", GT, str(late), "--json", "--sync", "spatial"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert searched["signals"] == plain["signals"]


def test_positions_in_millimetres_are_fixed_by_a_scale_file_whose_line_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rgbdslam in mm was told "convert it" with no flag (a review): the fix is
    ``--transform-left SCALE_FILE`` and the JSON line it holds, said as TUM's ``--scale``
    is; pasted, it gives the APE of the file in metres."""
    est = read_trajectory(resolve_path(EST))
    mm = tmp_path / "mm.tum"
    write_trajectory(mm, est.replace(positions_xyz=1000.0 * est.positions_xyz), "tum")
    assert main(["doctor", GT, str(mm)]) == 0
    finding = next(line for line in capsys.readouterr().out.splitlines() if "scale:" in line)
    matrix = "[[0.001,0,0,0],[0,0.001,0,0],[0,0,0.001,0],[0,0,0,1]]"
    assert finding.endswith(
        "[fix: --transform-left SCALE_FILE; SCALE_FILE holds the 4x4 diag(0.001, 0.001, "
        f"0.001, 1): {matrix}]"
    )
    (tmp_path / "SCALE_FILE").write_text(matrix + "\n")
    assert (
        main(["ape", GT, str(mm), "--json", "--transform-left", str(tmp_path / "SCALE_FILE")]) == 0
    )
    fixed = json.loads(capsys.readouterr().out)
    assert main(["ape", GT, EST, "--json"]) == 0
    clean = json.loads(capsys.readouterr().out)
    for ours, theirs in zip(fixed["signals"], clean["signals"], strict=True):
        assert ours["stats"]["rms"] == pytest.approx(theirs["stats"]["rms"], rel=1e-9)


@pytest.mark.parametrize(
    ("flags", "unused"),
    [
        (["--sync", "spatial", "--offset", "auto"], ["offset_auto"]),
        (["--sync", "spatial"], []),
        (["--offset", "auto"], []),  # matched in time: searched
    ],
)
def test_json_says_the_offset_search_unused_in_space_as_the_text_does(
    capsys: pytest.CaptureFixture[str], flags: list[str], unused: list[str]
) -> None:
    """The text's "time_offset (--offset auto unused)" had no word in --json, whose output
    was byte-identical with and without ``--offset auto`` under ``--sync spatial``."""
    assert main(["doctor", GT, EST, "--json", *flags]) == 0
    assert json.loads(capsys.readouterr().out)["unused_settings"] == unused


def test_findings_fold_to_a_terminals_width_and_stay_one_line_in_a_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Findings of 154-216 characters ran off an 80-column terminal."""
    late = _late(tmp_path)
    assert main(["doctor", GT, late]) == 0
    piped = capsys.readouterr().out.splitlines()
    terminal = Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["doctor", GT, late]) == 0
    shown = terminal.getvalue().splitlines()
    assert len(shown) > len(piped)
    assert all(len(line) <= 80 for line in shown if " " in line.strip())
    assert " ".join(line.strip() for line in shown) == " ".join(piped)


@pytest.mark.parametrize("words", range(40))
def test_a_flag_of_a_fix_is_never_folded_apart_from_its_value(words: int) -> None:
    """KITTI 00's ORB 100 frames early ended its 80-column line with "[fix: --offset" and
    began the next with "100]": pasted, the flag ran without its value (a review)."""
    from robot_msgs.cli.doctor import format_diagnosis
    from robot_msgs.compare import Finding

    finding = Finding(
        kind="time_offset",
        severity="warning",
        summary="the estimate's stamps are late" + " x" * words,
        fix={"offset_s": -0.094791, "max_diff_s": 0.1},
    )
    diagnosis = Diagnosis(reference="r.tum", estimate="e.tum", findings=(finding,))
    text = format_diagnosis(diagnosis, 80)
    assert "--offset -0.094791" in text, text
    assert "--max-diff 0.1" in text, text
    assert " ".join(line.strip() for line in text.splitlines()[1:]) == " ".join(
        format_diagnosis(diagnosis).splitlines()[1].split()
    )


@pytest.mark.parametrize("letters", range(60))
def test_a_count_is_never_folded_apart_from_its_noun(letters: int) -> None:
    """fr1_xyz's ground truth against KITTI 00's ORB (the evo data) ended its 80-column
    header with "1 error, 1" and began the next line with "info"; ORB_kf_mono's with
    "3" and "warnings". A number keeps the word after it, as a flag keeps its value."""
    from robot_msgs.cli.doctor import format_diagnosis
    from robot_msgs.compare import Finding

    summary = "the stamps are " + "x" * letters
    error = Finding(kind="stamp_units", severity="error", summary=summary)
    findings = (error, *[Finding(kind="coverage", severity="warning", summary=summary)] * 3)
    name = "/data/" + "e" * letters + ".tum"
    diagnosis = Diagnosis(reference="r.tum", estimate=name, findings=findings)
    text = format_diagnosis(diagnosis, 80)
    assert "1 error," in text, text
    assert "3 warnings" in text, text
    assert " ".join(text.split()) == " ".join(format_diagnosis(diagnosis).split())


def test_the_reading_rules_reach_the_readers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = tmp_path / "r.tum", tmp_path / "e.tum"
    rows = ["1.0 0 0 0 0 0 0 1", "1.0 1 0 0 0 0 0 1", "2.0 2 0 0 0 0 0 1", "3.0 3 0 0 0 0 0 1"]
    ref.write_text("\n".join(rows) + "\n")
    est.write_text("\n".join(rows[:1] + rows[2:]) + "\n")
    assert main(["doctor", str(ref), str(est), "--repeated-stamps", "last"]) == 0
    assert "kept the last row of each stamp" in capsys.readouterr().out
    assert main(["doctor", str(ref), str(est), "--repeated-stamps", "refuse"]) == 1
    assert "refused (--repeated-stamps refuse)" in capsys.readouterr().err


def test_a_file_of_no_format_is_answered_with_its_sides_format_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """doctor said ``--format``, which sets both sides, as ape did before it said its side's."""
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2 3\n")
    good = "example:fr1_xyz/rgbdslam.tum"
    choose = "choose the format ({} tum, kitti or euroc)\n"
    for argv, flag in (([bad, good], "--ref-format"), ([good, bad], "--est-format")):
        assert main(["doctor", *map(str, argv)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"ERROR: {bad}: cannot tell the format: line 1 has 3 numbers")
        assert err.endswith(choose.format(flag))
    assert main(["doctor", str(bad), str(bad)]) == 1  # both sides: the one flag says both
    assert capsys.readouterr().err.endswith(choose.format("--format"))


def test_offset_auto_and_its_search_range_reach_the_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--offset auto --offset-search 10`` were dropped by the doctor, which advised the
    edge of its own ±1 s search for an estimate 3 s late (a review); ``--offset-search``
    without ``--offset auto`` is refused as ``ape`` refuses it."""
    est = read_trajectory(resolve_path(EST))
    path = tmp_path / "late3.tum"
    write_trajectory(path, est.replace(stamps_s=est.stamps_s + 3.0), "tum")
    late = str(path)
    assert main(["doctor", GT, late, "--check", "--offset", "auto"]) == 1
    finding = next(line for line in capsys.readouterr().out.splitlines() if "time_offset" in line)
    assert finding.startswith(
        "warning time_offset: the estimate's stamps are 2.9948 s ± 0.004 s late against the "
        "reference's"
    )
    assert "the search over offsets -1 .. +1 s ends at its edge (-0.9950 s)" in finding
    assert finding.endswith("[fix: --offset-search 4]")
    flags = ["--offset", "auto", "--offset-search", "4"]
    assert main(["doctor", GT, late, "--check", *flags]) == 0
    out = capsys.readouterr().out
    assert (
        "info    time_offset: the offset search (--offset auto) finds that the estimate's stamps are "
        in out
    )
    for command in ("ape", "doctor"):
        assert main([command, GT, late, "--offset-search", "10"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("ERROR: --offset-search 10: expected --offset auto")
        assert err.count("\n") == 1


def test_a_position_only_file_is_an_info_that_check_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Latitude/longitude has no orientation: the reader's warning was passed on beside the
    diagnosis, a kind it did not know. It is a finding of its own kind, an info."""
    files = []
    for name, off in (("r.lla", 0.0), ("e.lla", 1e-7)):
        rows = [(t, 45.0 + 1e-5 * t * t + off * (t % 2), 9.0 + 1e-5 * t) for t in range(20)]
        files.append(tmp_path / name)
        files[-1].write_text("".join(f"{t} {la!r} {lo!r} 0.0\n" for t, la, lo in rows))
    assert main(["doctor", *map(str, files), "--check", "--json"]) == 0
    found = Diagnosis.from_dict(json.loads(capsys.readouterr().out)).findings
    said = [f for f in found if f.kind == "no_orientation"]
    assert [f.severity for f in said] == ["info", "info"]
    for f, file in zip(said, files, strict=True):
        assert f.summary.startswith(f"{file}: latitude/longitude/altitude has no orientation")


@pytest.mark.parametrize(
    ("cut", "said"),
    [
        (False, "warning coverage: one.tum: 1 pose only (time span 0 s, no rate): nothing to"),
        (True, "warning coverage: the reference has 1 pose only in the time range: nothing"),
    ],
)
def test_one_pose_is_a_warning_not_nothing_found(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    cut: bool,
    said: str,
) -> None:
    """A one-pose estimate (ape: "1 pose only") or a time range that keeps one reference
    pose in the estimate's span: the doctor checked nothing and said "nothing found",
    passing ``--check``. The reader's warning is said once, as the finding."""
    monkeypatch.chdir(tmp_path)
    if cut:
        stamp = repr(float(read_trajectory(resolve_path(GT)).stamps_s[1500]))
        argv = [GT, EST, "--t-start", stamp, "--t-end", stamp]
    else:
        rows = resolve_path(EST).read_text().splitlines()
        (tmp_path / "one.tum").write_text(next(r for r in rows if not r.startswith("#")) + "\n")
        argv = [GT, "one.tum"]
    assert main(["doctor", *argv, "--check"]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].endswith(": 1 warning"), out
    assert lines[1].startswith(said), out
    assert err == ""


def test_a_one_pose_file_given_as_both_sides_is_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review of a044db9: the file is read, and warned of, once per side; its one pose
    was two identical findings ("3 warnings"), where the commit says it once."""
    monkeypatch.chdir(tmp_path)
    rows = resolve_path(EST).read_text().splitlines()
    (tmp_path / "one.tum").write_text(next(r for r in rows if not r.startswith("#")) + "\n")
    assert main(["doctor", "one.tum", "one.tum", "--check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(": 2 warnings"), lines
    assert sorted(line.split(":")[0] for line in lines[1:]) == [
        "warning coverage",
        "warning same_input",
    ]


@pytest.mark.parametrize(("side", "flag"), [(0, "--ref-times"), (1, "--est-times")])
def test_frame_indices_beside_seconds_name_the_times_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], side: int, flag: str
) -> None:
    """A KITTI file read without its times beside seconds: the doctor said "give the
    estimate's times file" and named no flag, where ``ape`` names ``--est-times`` (a
    review)."""
    kitti = tmp_path / "frames.kitti"
    write_trajectory(kitti, read_trajectory(resolve_path(EST)), "kitti")  # no times beside
    files = [GT, str(kitti)] if side == 1 else [str(kitti), GT]
    assert main(["doctor", *files]) == 0
    whose = ("reference", "estimate")[side]
    (line,) = [line for line in capsys.readouterr().out.splitlines() if "stamp_units" in line]
    assert f"give the {whose}'s times file ({flag}); not checked: clock_domain, " in line


def test_confidence_is_not_a_flag_of_the_doctor(capsys: pytest.CaptureFixture[str]) -> None:
    """The doctor computes no NEES: `doctor --confidence` was listed and taken in silence."""
    with pytest.raises(SystemExit, match=r"^2$"):  # argparse's refusal
        main(["doctor", "a.tum", "b.tum", "--confidence", "0.9"])
    assert "--confidence is a flag of ape, report and bench, not of doctor" in (
        capsys.readouterr().err
    )
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["doctor", "--help"])
    assert "--confidence" not in capsys.readouterr().out


def _rewritten(
    tmp_path: Path, name: str, row: Callable[[list[str]], list[str]], source: str = EST
) -> str:
    """Write the example's rows rewritten as text (no reader, no writer)."""
    text = resolve_path(source).read_text().splitlines()
    rows = [line if line.startswith("#") else " ".join(row(line.split())) for line in text]
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _milliseconds(stamp: str) -> str:
    """``1305031102.160407`` written as ``1305031102160.407``: the point moved, digits kept."""
    whole, fraction = stamp.split(".")
    fraction = fraction.ljust(3, "0")
    return f"{whole}{fraction[:3]}.{fraction[3:] or '0'}"


def _fixed_by_its_line(
    bad: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> tuple[list[str], str]:
    """Run the doctor on ``bad``, return the fix flags its ``kind`` line ends with, and the line."""
    assert main(["doctor", GT, bad]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if f" {kind}: " in x)
    assert line.endswith("]"), line
    return line.rsplit("[fix: ", 1)[1][:-1].split(), line


@pytest.mark.parametrize(
    ("name", "row", "kind"),
    [
        # TUM's qx qy qz qw written qw qx qy qz
        ("w_first.tum", lambda f: [*f[:4], f[7], *f[4:7]], "quaternion_order"),
        ("ms.tum", lambda f: [_milliseconds(f[0]), *f[1:]], "stamp_units"),
    ],
)
def test_a_file_written_in_another_layout_is_told_a_fix_that_gives_the_files_numbers(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    row: Callable[[list[str]], list[str]],
    kind: str,
) -> None:
    """The fix printed, pasted, gives the APE of the file as published, every digit.

    WHY: the doctor said "check the files' column order" and "write them in seconds
    (divide by 1e3)", with no setting to read them so; the user had to rewrite the file.
    The reference figures are the untouched example file's (an angle APE: a translation
    APE does not read quaternions).
    """
    bad = _rewritten(tmp_path, name, row)
    flags, line = _fixed_by_its_line(bad, kind, capsys)
    assert flags[0] in ("--w-first", "--stamp-divisors"), line
    ape = ["ape", GT, "--relation", "angle_deg", "--json"]
    assert main([*ape, EST]) == 0
    published = json.loads(capsys.readouterr().out)["signals"]
    assert main([*ape, bad]) in (0, 1)
    broken = capsys.readouterr().out
    assert not broken or json.loads(broken)["signals"] != published  # the fault shows
    assert main([*ape, bad, *flags]) == 0
    # Every digit, the integrals over time too: the stamps divided are the seconds file's.
    assert json.loads(capsys.readouterr().out)["signals"] == published
    assert main(["doctor", GT, bad, *flags]) == 0
    assert f" {kind}: " not in capsys.readouterr().out


def test_w_first_on_rotation_blocks_is_one_error_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A KITTI file has no quaternion columns to reorder: refused, the flag named."""
    kitti = tmp_path / "est.kitti"
    write_trajectory(kitti, read_trajectory(resolve_path(EST)), "kitti")
    for command in ("doctor", "ape"):
        assert main([command, str(kitti), str(kitti), "--w-first", "estimate"]) == 2
        assert capsys.readouterr().err.splitlines()[-1] == (
            "ERROR: --w-first estimate: Expected a TUM file (quaternion columns qx qy qz qw) "
            "as the estimate, got its orientations read from rotation blocks: nothing to "
            "reorder"
        )


def test_a_reference_written_w_first_is_told_to_be_read_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ground truth written ``qw qx qy qz``: the figures cannot tell the side (neither
    first pose is the identity), and the estimate's other reading would be w last where w
    first is expected, which no reading of a TUM file undoes: the reference's w-first
    reading is told, and it gives the published pair's angle APE."""
    bad = _rewritten(tmp_path, "gt.tum", lambda f: [*f[:4], f[7], *f[4:7]], source=GT)
    assert main(["doctor", bad, EST]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if " quaternion_order: " in x)
    assert line.endswith("[fix: --w-first reference]")
    ape = ["--relation", "angle_deg", "--json"]
    assert main(["ape", GT, EST, *ape]) == 0
    published = json.loads(capsys.readouterr().out)["signals"]
    assert main(["ape", bad, EST, *ape, "--w-first", "reference"]) == 0
    assert json.loads(capsys.readouterr().out)["signals"] == published


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("est.csv", "a EuRoC file (qw qx qy qz, its format's order)"),
        ("est.mcap", "a bag's named fields"),
    ],
)
def test_w_first_on_a_format_without_tum_columns_is_one_error_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, written: str
) -> None:
    """A EuRoC file is w first as its format is; a bag names its fields: refused.

    WHY: only rotation blocks were refused; a EuRoC file or a bag named by ``--w-first``
    was reordered without a word, and the bag example's ORB-SLAM angle APE went from
    12.5 to 169 deg.
    """
    other = tmp_path / name
    write_trajectory(other, read_trajectory(resolve_path(EST)))  # the format by its suffix
    for command in ("doctor", "ape"):
        assert main([command, GT, str(other), "--w-first", "estimate"]) == 2
        assert capsys.readouterr().err.splitlines()[-1] == (
            "ERROR: --w-first estimate: Expected a TUM file (quaternion columns qx qy qz qw) "
            f"as the estimate, got its orientations read from {written}: nothing to reorder"
        )
    assert main(["ape", GT, str(other), "--w-first", "reference"]) == 0  # the TUM side


def test_a_result_says_how_its_inputs_were_read_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json`` and ``--save`` name the reading flags that changed each input.

    WHY: a result read with ``--stamp-divisors 1 1000`` or ``--w-first estimate`` said
    nothing of it: its numbers could not be redone from it, nor told from the file's.
    """
    ms = _rewritten(tmp_path, "ms.tum", lambda f: [_milliseconds(f[0]), *f[1:]])
    saved = tmp_path / "r.json"
    flags = ["--stamp-divisors", "1", "1000", "--w-first", "reference"]
    assert main(["ape", GT, ms, *flags, "--json", "--save", str(saved)]) == 0
    want = [
        f"{GT}: its quaternions read w first (--w-first reference)",
        f"{ms}: its stamps divided (--stamp-divisors 1 1000)",
    ]
    assert json.loads(capsys.readouterr().out)["notes"][:2] == want
    assert json.loads(saved.read_text())["comparison"]["notes"][:2] == want


def test_a_swapped_ref_and_est_is_warned_as_ape_warns_it_and_not_swapped_silences_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The doctor took ``--not-swapped`` (the shared input flags), whose help describes the
    ground-truth-name warning, and never gave that warning: a swapped REF EST, a finding
    of a diagnosis, went unsaid. The same line as ape's, and the flag silences it."""
    assert main(["ape", EST, GT]) == 0
    said = capsys.readouterr().err
    assert said.startswith(f"WARNING: {GT}, an EST, is named as ground truth and REF {EST}")
    assert main(["doctor", EST, GT]) == 0
    assert capsys.readouterr().err == said
    assert main(["doctor", EST, GT, "--not-swapped"]) == 0
    assert capsys.readouterr().err == ""
