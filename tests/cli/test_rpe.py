"""``robot-msgs rpe``: the seconds delta of the SLAM guide, pair flags, errors."""

from __future__ import annotations

import json
import math
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.cli import main
from robot_msgs.errors import DataWarning
from robot_msgs.io.result_files import load_result
from tests.cli.evaluation_files import seed_files, stats_of

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.typing import Float64Array

T = np.arange(101.0) * 0.1


@pytest.mark.parametrize(
    ("estimate_x", "expected"), [(T + 0.1, "0.000000"), (T + 0.01 * T, "0.010000")]
)
def test_seed_table_one_second_all_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], estimate_x: Float64Array, expected: str
) -> None:
    ref, est = seed_files(tmp_path, estimate_x)
    assert (
        main(
            [
                "rpe",
                str(ref),
                str(est),
                "--delta",
                "1",
                "--delta-unit",
                "s",
                "--all-pairs",
                "--json",
            ]
        )
        == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert f"{stats_of(result)['translation']['rms']:.6f}" == expected
    assert result["parameters"]["delta_unit"] == "s"
    assert result["parameters"]["all_pairs"] is True
    assert result["counts"]["pairs"] == 91


def test_pairs_from_reference_and_tolerance_are_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T * 1.01)
    args = [
        "rpe",
        str(ref),
        str(est),
        "--delta",
        "1",
        "--delta-unit",
        "m",
        "--all-pairs",
        "--pairs-from-reference",
        "--delta-tol",
        "0.05",
        "--json",
    ]
    assert main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["parameters"]["pairs_from"] == "reference"
    assert result["parameters"]["delta_tol"] == 0.05
    assert stats_of(result)["translation"]["median"] == pytest.approx(0.01)


def test_table_for_the_error_ratio(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, est = seed_files(tmp_path, T * 1.1)
    assert main(["rpe", str(ref), str(est), "--relation", "point_distance_error_ratio"]) == 0
    row = next(
        line
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("point_distance_error_ratio")
    )
    assert row.split()[1:3] == ["%", "100"]
    assert row.split()[3] == "10"


def test_the_settings_line_is_wrapped_as_the_poses_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    flags = ["--relation", "point_distance_error_ratio", "--delta", "1", "--delta-unit", "m"]
    assert main(["rpe", ref, est, *flags, "--all-pairs", "--align", "sim3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 80  # was 98 columns
    at = next(i for i, line in enumerate(lines) if line.startswith("settings:"))
    assert lines[at : at + 2] == [  # a flag stays with its value
        "settings:  --relation point_distance_error_ratio --delta 1 --delta-unit m",
        "           --all-pairs --align sim3",
    ]


def test_plot_of_all_pairs(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    ref, est = seed_files(tmp_path, T * 1.01)
    png = tmp_path / "rpe.png"
    assert (
        main(
            [
                "rpe",
                str(ref),
                str(est),
                "--delta",
                "0.5",
                "--delta-unit",
                "m",
                "--all-pairs",
                "--plot",
                str(png),
            ]
        )
        == 0
    )
    assert png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("deltas", "title", "words"),
    [
        (
            ["1"],
            "RPE over time (at pair end), delta 1 frame",
            ["translation error over 1 frame [m]"],
        ),
        (
            ["1", "5"],
            "RPE over time (at pair end), delta 1 frame, 5 frames",
            ["1 frame", "5 frames"],
        ),
    ],
)
def test_the_plots_title_says_the_delta_in_the_axis_and_legend_words(
    tmp_path: Path, deltas: list[str], title: str, words: list[str]
) -> None:
    """The title said "delta 1 f" over an axis saying "over 1 frame", and several deltas
    "delta 1 5 f" beside a legend of "1 f" and "5 f" (a review): one wording, the axis's."""
    pytest.importorskip("matplotlib")
    svg = tmp_path / "rpe.svg"
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    assert main(["rpe", gt, est, "--delta", *deltas, "--plot", str(svg), "--quiet"]) == 0
    text = svg.read_text(encoding="utf-8")
    for said in (title, *words):
        assert f">{said}<" in text
    assert " f<" not in text


def test_a_delta_without_pairs_is_one_error_line_naming_the_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T)
    assert main(["rpe", str(ref), str(est), "--delta", "50", "--delta-unit", "m"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    # The path is 10 m (x = t over 10 s): no 50 m pair.
    assert err[0] == (
        f"ERROR: --delta 50: {est}: delta = 50 m gave no pose pair among the 101 matched poses of the "
        "estimate (duration 10 s, path 10 m): use a smaller delta"
    )


@pytest.mark.parametrize(("unit", "never"), [("m", "moves"), ("deg", "turns")])
def test_a_delta_on_an_estimate_that_never_moves_says_which_units_can_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], unit: str, never: str
) -> None:
    # A still estimate (x = 0 throughout, identity rotations) was told "use a smaller
    # delta" (or "or all pairs"), which no delta > 0 in metres or degrees can follow.
    ref, est = seed_files(tmp_path, np.zeros(101))
    assert main(["rpe", str(ref), str(est), "--delta", "0.5", "--delta-unit", unit]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0] == (
        f"ERROR: --delta 0.5: {est}: delta = 0.5 {unit} gave no pose pair among the 101 matched poses "
        f"of the estimate (duration 10 s, path 0 m): the estimate never {never}, so no delta "
        f"in {unit} makes a pair: use --delta-unit f (frames) or --delta-unit s (seconds)"
    )


def test_a_frame_delta_past_int64_with_all_pairs_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was "ERROR: a bug in robot_msgs ... (OverflowError: Python int too large to
    # convert to C long)", where the consecutive pairs said what to do.
    ref, est = seed_files(tmp_path, T)
    argv = ["rpe", str(ref), str(est), "--delta", "1e300", "--delta-unit", "f", "--all-pairs"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0] == (
        f"ERROR: --delta 1e+300: {est}: delta = 1e+300 frames gave no pose pair among the 101 matched "
        "poses of the estimate (duration 10 s, path 10 m): use a smaller delta"
    )


def test_a_delta_tolerance_that_changes_nothing_is_refused_naming_the_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T)
    assert main(["rpe", str(ref), str(est), "--delta-tol", "0.5"]) == 2
    assert capsys.readouterr().err.startswith(
        "ERROR: --delta-tol 0.5: expected no tolerance (it is the tolerance of seconds deltas"
    )
    argv = ["rpe", str(ref), str(est), "--delta-unit", "m", "--delta-tol", "0.5"]
    assert main(argv) == 2
    assert "this is delta_unit m without all_pairs" in capsys.readouterr().err
    assert main([*argv, "--all-pairs"]) == 0  # all pairs by path: the tolerance applies
    assert main(["rpe", str(ref), str(est), "--delta-unit", "s", "--delta-tol", "0.5"]) == 0


def test_the_interval_is_always_said(capsys: pytest.CaptureFixture[str]) -> None:
    """`settings: the defaults` hid that the interval was 1 frame, `--delta-unit m` its 1."""
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    assert main(["rpe", ref, est]) == 0
    assert "settings:  --delta 1 --delta-unit f (not aligned)\n" in capsys.readouterr().out
    assert main(["rpe", ref, est, "--delta-unit", "m", "--align", "se3"]) == 0
    assert "settings:  --delta 1 --delta-unit m --align se3\n" in capsys.readouterr().out


def test_files_after_a_list_of_deltas_are_said_to_be_files(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`rpe --delta 1 REF EST` took REF as a delta: "invalid float value: 'REF'"."""
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["rpe", "--delta", "1", ref, est])
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"ERROR: robot-msgs rpe: argument --delta: {ref!r} is a file: --delta takes every word "
        "up to the next flag; give the files before it (or end its numbers with --)"
    )
    assert main(["rpe", "--delta", "1", "2", "--", ref, est]) == 0  # as it says


def test_help_lists_and_explains_every_relation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rpe --help` said "as for ape (frames as stated there) without ..." (a review)."""
    import re

    from robot_msgs.evaluation.relations import APE_RELATIONS, RPE_RELATIONS

    monkeypatch.setenv("COLUMNS", "1000")
    with pytest.raises(SystemExit, match="0"):
        main(["rpe", "--help"])
    out = capsys.readouterr().out.splitlines()
    (line,) = [x for x in out if x.startswith("  --relation RELATION")]
    text = line.split("--relation RELATION", 1)[1]
    named = set()
    for token in re.findall(r"[a-z_]+(?:/[a-z_]+)*(?:\|_[a-z]+)?", text):
        bases, _, other = token.partition("|")  # roll/pitch/yaw_rad|_deg
        if other:
            bases, suffix = bases.rsplit("_", 1)
            named |= {f"{b}{s}" for b in bases.split("/") for s in (f"_{suffix}", other)}
        else:
            named |= set(bases.split("/"))
    assert "ape" not in named
    assert set(RPE_RELATIONS) <= named
    assert not named & (set(APE_RELATIONS) - set(RPE_RELATIONS))  # APE's only: not offered


def test_rpe_help_states_the_default_delta(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # rpe --help gave --delta-unit's default (f) but not --delta's: a flag of several values
    # was helped without its default, which the settings line then shows as --delta 1.
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["rpe", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "several on the command line give one result row per delta (default 1)" in out
    assert main(["rpe", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"]) == 0
    assert "settings:  --delta 1 --delta-unit f (not aligned)" in capsys.readouterr().out


def test_confidence_is_not_a_flag_of_rpe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RPE has no NEES: `rpe --confidence 0.9` was listed in --help and taken in silence."""
    ref, est = seed_files(tmp_path, np.arange(101.0) * 0.101)
    with pytest.raises(SystemExit, match=r"^2$"):  # argparse's refusal
        main(["rpe", str(ref), str(est), "--confidence", "0.9"])
    err = capsys.readouterr().err
    assert "--confidence is a flag of ape, report and bench, not of rpe" in err
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["rpe", "--help"])
    assert "--confidence" not in capsys.readouterr().out


def _repeating(tmp_path: Path) -> Path:
    """x = 0, 1, 3, 4 m at stamps 0, 1, 1, 2 s: stamp 1 written twice."""
    path = tmp_path / "t.tum"
    path.write_text("".join(f"{t} {x} 0 0 0 0 0 1\n" for t, x in [(0, 0), (1, 1), (1, 3), (2, 4)]))
    return path


def test_repeated_stamps_all_pairs_every_row_as_evo_rpe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rpe --repeated-stamps all` was refused, though the library gives evo_rpe's numbers.

    By hand: evo pairs both rows of stamp 1 with the last reference row, so the matched
    reference is x = 0, 3, 3, 4 and the estimate 0, 1, 3, 4; at 1 frame the motions are 3,
    0, 1 against 1, 2, 1: errors 2, 2, 0 m, rms sqrt(8/3) (evo_rpe tum t.tum t.tum: rmse
    1.632993, sse 8).
    """
    path = _repeating(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main(["rpe", str(path), str(path), "--repeated-stamps", "all", "--json"]) == 0
    stats = stats_of(json.loads(capsys.readouterr().out))["translation"]
    assert (stats["n"], stats["max"], stats["min"]) == (3, 2.0, 0.0)
    assert stats["rms"] == pytest.approx(math.sqrt(8 / 3), rel=1e-15)


def test_repeated_stamps_all_with_a_delta_in_seconds_names_the_flag_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The library's `repeated_stamps='all'` is written as its flag by the CLI: its own
    "--repeated-stamps all" beside it read "(read with --repeated-stamps all,
    --repeated-stamps all)"."""
    path = _repeating(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        code = main(["rpe", str(path), str(path), "--repeated-stamps", "all", "--delta-unit", "s"])
    (error,) = [line for line in capsys.readouterr().err.splitlines() if "ERROR" in line]
    assert code == 2
    assert error.startswith("ERROR: --delta-unit s: ")
    assert error.count("--repeated-stamps all") == 1


@pytest.mark.parametrize(("command", "rms"), [("ape", 1.0), ("rpe", math.sqrt(8 / 3))])
def test_repeated_stamps_all_with_save_reads_back_equal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, rms: float
) -> None:
    """`--save` with `--repeated-stamps all` was refused: the matched trajectories repeat
    stamps, and a saved result was refused on loading ("Expected strictly increasing
    stamps (previous 1.0), got float 1.0 - at `EvaluationResult.reference.stamps_s[2]`").
    Now each trajectory says its stamps may repeat (``stamps_repeat``) and loads back.

    By hand (as above): matched reference x = 0, 3, 3, 4 m, estimate 0, 1, 3, 4 m; APE
    errors 0, 2, 0, 0 m (rms 1); RPE at 1 frame 2, 2, 0 m (rms sqrt(8/3), evo_rpe's).
    The aligned estimate is the file's 4 rows, stamp 1 twice."""
    path, aligned = _repeating(tmp_path), tmp_path / "aligned.tum"
    saved = [tmp_path / f"out{suffix}" for suffix in (".json", ".npz")]
    for out in saved:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DataWarning)
            argv = [command, str(path), str(path), "--repeated-stamps", "all", "--force"]
            assert main([*argv, "--save", str(out), "--save-aligned", str(aligned)]) == 0
    capsys.readouterr()
    first, second = map(load_result, saved)
    assert first == second
    assert first.reference.stamps_s.tolist() == [0.0, 1.0, 1.0, 2.0]
    assert first.reference.positions_xyz[:, 0].tolist() == [0.0, 3.0, 3.0, 4.0]
    assert first.stats[first.comparison.signals[0].name].rms == pytest.approx(rms, rel=1e-12)
    rows = [line.split()[:2] for line in aligned.read_text().splitlines()]
    assert [row for row in rows if row[0] != "#"] == [
        ["0.0", "0.0"], ["1.0", "1.0"], ["1.0", "3.0"], ["2.0", "4.0"]
    ]  # fmt: skip
    assert main(["res", *map(str, saved)]) == 0


@pytest.mark.parametrize("command", ["ape", "rpe"])
@pytest.mark.parametrize("aligned_name", ["b.mcap", "b.db3", "b.csv"])
def test_repeated_stamps_all_refused_aligned_format_writes_no_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, aligned_name: str
) -> None:
    """`--repeated-stamps all --save r.json --save-aligned b.mcap` wrote r.json, then
    refused b.mcap (stamp 1 twice: one integer nanosecond, 1000000000, for poses 1 and 2),
    exit 1 with half the outputs written. Every output is now checked before any is
    written: the one ERROR, and neither file. EuRoC (``.csv``) and ``.db3`` store
    nanoseconds too; TUM keeps both rows (the test above)."""
    path = _repeating(tmp_path)
    saved, aligned = tmp_path / "r.json", tmp_path / aligned_name
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        argv = [command, str(path), str(path), "--repeated-stamps", "all", "--force"]
        code = main([*argv, "--save", str(saved), "--save-aligned", str(aligned)])
    err = capsys.readouterr().err
    assert code == 1
    errors = [line for line in err.splitlines() if line.startswith("ERROR:")]
    want = (
        f"ERROR: {aligned}: stamps 1.0 and 1.0 s (poses 1 and 2) are the same integer "
        "nanosecond 1000000000: stamps in nanoseconds cannot tell them apart (TUM's can)"
    )
    assert errors == [want]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.tum"]


@pytest.mark.parametrize("command", ["ape", "rpe"])
def test_repeated_stamps_all_with_offset_auto_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """`--repeated-stamps all --offset auto` on a file whose every stamp is written twice
    said "ERROR: a bug in robot_msgs ... (ZeroDivisionError: float division by zero)": the
    offset search stepped by the estimate's median interval, 0 s. It now says the rule."""
    path = tmp_path / "twice.tum"
    rows = [(t // 2, 0.1 * t, math.sin(t)) for t in range(40)]
    path.write_text("".join(f"{t} {x} {y} 0 0 0 0 1\n" for t, x, y in rows))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        code = main([command, str(path), str(path), "--repeated-stamps", "all", "--offset", "auto"])
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("ERROR:")]
    assert code == 2  # a setting refused, as --delta-unit s above
    assert len(errors) == 1
    assert errors[0].startswith(f"ERROR: --offset auto: {path}: the reference's stamps repeat")
    assert "bug" not in errors[0]


def test_a_pose_before_1970_refused_by_a_mcap_writes_no_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--save r.json --save-aligned b.mcap` of stamps -100 ... -97 s wrote r.json, then
    refused b.mcap (a .mcap's log times are unsigned nanoseconds): half the outputs. The
    one ERROR now, and no file; a .db3 holds the times and both are written, as is a
    .mcap's ``path`` layout, logged at its last stamp only (here 1 s)."""
    path = tmp_path / "t.tum"
    rows = [(-100, 0), (-99, 1), (-98, 3), (-97, 4)]
    path.write_text("".join(f"{t} {x} 0 0 0 0 0 1\n" for t, x in rows))
    saved = tmp_path / "r.json"
    argv = ["ape", str(path), str(path), "--save", str(saved), "--save-aligned"]
    assert main([*argv, str(tmp_path / "b.mcap")]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if "ERROR" in line]
    want = (
        f"ERROR: {tmp_path / 'b.mcap'}: pose 0's stamp -100.0 s is before 1970, outside what "
        f"a .mcap bag's log times hold (0 to {2**64 - 1} ns); a .db3 bag holds them"
    )
    assert errors == [want]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.tum"]
    assert main([*argv, str(tmp_path / "b.db3")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db3", "r.json", "t.tum"]
    path.write_text("".join(f"{t} {x} 0 0 0 0 0 1\n" for t, x in [*rows, (1, 5)]))
    layout = ["--save-layout", "path", "--force"]
    assert main([*argv, str(tmp_path / "c.mcap"), *layout]) == 0
    assert (tmp_path / "c.mcap").is_file()
