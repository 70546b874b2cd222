"""The settings flags every evaluation command shares: each sets one settings field, errors name it."""

from __future__ import annotations

import argparse
import json
import re
import shutil
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.cli import main
from robot_msgs.cli._settings_flags import declared_flags
from robot_msgs.compare import FINDING_KINDS
from tests.cli.evaluation_files import curve_files, stats_of, write_tum

if TYPE_CHECKING:
    from pathlib import Path


def test_offset_auto_estimates_records_and_notes_the_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.2)
    argv = ["ape", str(ref), str(est), "--offset", "auto", "--align", "se3", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["settings"]["offset_auto"] is True
    offset = result["estimated"]["time_offset"]["offset_s"]
    assert offset == pytest.approx(-0.2, abs=1e-4)
    assert "NOTE: time offset estimated: -0.2000 s ±" in captured.err


def test_offset_search_sets_the_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, est = curve_files(tmp_path, 1.5)
    argv = ["rpe", str(ref), str(est), "--offset", "auto", "--offset-search", "2", "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["settings"]["offset_search_s"] == 2.0
    offset = result["estimated"]["time_offset"]["offset_s"]
    assert offset == pytest.approx(-1.5, abs=1e-4)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--offset-search", "0.5"], "ERROR: --offset-search 0.5: expected --offset auto: the"),
        (
            ["--offset", "auto", "--offset-search", "0"],
            "ERROR: --offset-search 0: expected float > 0",
        ),
    ],
)
def test_bad_offset_flags_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    assert main(["ape", str(ref), str(est), *flags]) == 2  # a flag's value: a usage error
    err = capsys.readouterr().err
    assert err.startswith(message)
    assert "Traceback" not in err


def test_an_offset_that_is_neither_seconds_nor_auto_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", str(ref), str(est), "--offset", "later"])
    assert "argument --offset: expected seconds or 'auto', got 'later'" in capsys.readouterr().err


def test_a_static_reference_refuses_offset_auto_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = np.arange(0.0, 10.0, 0.01)
    rng = np.random.default_rng(0)
    ref = write_tum(tmp_path / "ref.tum", t, rng.normal(scale=1e-4, size=(t.size, 3)))
    est = write_tum(tmp_path / "est.tum", t, rng.normal(scale=1e-4, size=(t.size, 3)))
    assert main(["ape", str(ref), str(est), "--offset", "auto"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"ERROR: {est}: Cannot estimate a time offset: the reference is")


def _write_matrix(path: Path, matrix: np.ndarray) -> Path:
    np.savetxt(path, matrix)
    return path


QUARTER_TURN = np.array(
    [[0.0, -1.0, 0.0, 1.0], [1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 1.0, 3.0], [0.0, 0.0, 0.0, 1.0]]
)


def test_transform_left_file_is_read_into_the_settings_and_undone_by_invert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, _ = curve_files(tmp_path, 0.0)
    t = np.arange(0.0, 30.0, 0.01)
    positions = np.stack([np.cos(t), np.sin(2 * t), 0.1 * t], axis=1)
    moved = positions @ QUARTER_TURN[:3, :3].T + QUARTER_TURN[:3, 3]  # T_l p, rotations R
    est = write_tum(tmp_path / "moved.tum", t, moved)
    matrix = _write_matrix(tmp_path / "T.txt", QUARTER_TURN)
    argv = ["ape", str(ref), str(est), "--transform-left", str(matrix), "--json"]
    assert main([*argv, "--invert-transform-left", "--relation", "translation"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert stats_of(result)["translation"]["max"] < 1e-12
    assert result["settings"]["transform_left"] == QUARTER_TURN.ravel().tolist()
    assert result["settings"]["invert_transform_left"] is True
    assert main([*argv, "--relation", "translation"]) == 0  # not inverted: far off
    assert stats_of(json.loads(capsys.readouterr().out))["translation"]["min"] > 1.0


@pytest.mark.parametrize(
    ("flags", "message", "code"),
    [
        (["--transform-right", "NOPE"], "ERROR: --transform-right NOPE: no such file", 1),
        (
            ["--invert-transform-left"],
            "ERROR: --invert-transform-left: expected a transform_left",
            2,  # flags that do not go together: a usage error
        ),
        (["--transform-right", "SCALED"], "ERROR: --transform-right ", 1),  # the file's
    ],
)
def test_bad_transform_flags_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str, code: int
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    scaled = _write_matrix(tmp_path / "scaled.txt", np.diag([2.0, 2.0, 2.0, 1.0]))
    flags = [str(scaled) if f == "SCALED" else f for f in flags]
    assert main(["rpe", str(ref), str(est), *flags]) == code
    err = capsys.readouterr().err
    assert err.startswith(message)
    assert "Traceback" not in err


def test_project_to_plane_flag_for_ape_rpe_and_drift(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The estimate differs from the reference only in z, by a varying amount: every error
    # vanishes in the xy plane and none in 3-D.
    t = np.arange(0.0, 300.0, 0.5)
    path = np.stack([t, np.sin(0.1 * t), 0 * t], axis=1)
    ref = write_tum(tmp_path / "ref.tum", t, path)
    bumpy = path + np.stack([0 * t, 0 * t, 0.3 * np.sin(0.37 * t)], axis=1)
    est = write_tum(tmp_path / "est.tum", t, bumpy)
    for command in ("ape", "rpe", "drift"):
        extra = ["--delta", "10", "--delta-unit", "m"] if command == "rpe" else []
        argv = [command, str(ref), str(est), *extra, "--json"]
        assert main(argv) == 0
        signal = next(iter(stats_of(json.loads(capsys.readouterr().out)).values()))
        assert signal["max"] > 1e-3, command
        assert main([*argv, "--project-to-plane", "xy"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["settings"]["project_to_plane"] == "xy"
        maxima = [stats["max"] for stats in stats_of(result).values() if stats["n"]]
        assert maxima, command
        assert all(value == 0.0 for value in maxima), command


def test_traj_applies_the_transforms_before_saving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = np.arange(5.0)
    src = write_tum(tmp_path / "in.tum", t, np.zeros((5, 3)))
    matrix = _write_matrix(tmp_path / "T.txt", QUARTER_TURN)
    out = tmp_path / "out.tum"
    argv = ["traj", str(src), "--transform-right", str(matrix), "--save", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    rows = np.loadtxt(out)
    # P T_r with P = identity poses: the transform itself, at every stamp.
    assert rows[:, 1:4] == pytest.approx(np.tile([1.0, 2.0, 3.0], (5, 1)))
    assert rows[:, 4:8] == pytest.approx(np.tile([0.0, 0.0, np.sqrt(0.5), np.sqrt(0.5)], (5, 1)))


def test_several_deltas_and_the_tum_protocol_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    argv = ["rpe", str(ref), str(est), "--delta", "1", "2", "--delta-unit", "s", "--json"]
    assert main([*argv, "--all-pairs"]) == 0
    evo = json.loads(capsys.readouterr().out)
    assert list(stats_of(evo)) == ["translation@1s", "translation@2s"]
    assert evo["parameters"]["delta"] == [1.0, 2.0]
    assert main([*argv, "--protocol", "tum"]) == 0
    tum = json.loads(capsys.readouterr().out)
    assert tum["parameters"]["protocol"] == "tum"
    assert set(tum["counts"]) >= {"pairs@1s", "pairs@2s"}


@pytest.mark.parametrize(
    ("command", "flags", "said"),
    [
        ("ape", ["--align", "origin", "--align", "se3"], "--align given twice (origin, se3)"),
        (
            "ape",
            ["--sync", "nearest", "--sync", "spatial"],
            "--sync given twice (nearest, spatial)",
        ),
        ("ape", ["--relation", "full", "--relation", "angle_deg"], "--relation given twice"),
        ("ape", ["--offset", "auto", "--offset", "0.1"], "--offset given twice (auto, 0.1)"),
        ("rpe", ["--delta-unit", "m", "--delta-unit", "f"], "--delta-unit given twice (m, f)"),
        (
            "rpe",
            ["--delta", "1", "--delta", "2"],
            "--delta given twice (1, 2); give it once, with all its values: --delta 1 2",
        ),
        ("drift", ["--lengths", "100", "--lengths", "200"], "--lengths given twice (100, 200)"),
    ],
)
def test_a_settings_flag_given_twice_with_two_values_is_refused_naming_both(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    flags: list[str],
    said: str,
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    with pytest.raises(SystemExit, match=r"^2$"):  # a usage error, as an unknown flag
        main([command, str(ref), str(est), *flags])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith(f"ERROR: robot-msgs {command}: {said}")
    assert last.endswith("give it once") or "give it once, with all its values" in last


def test_a_flag_given_twice_with_one_value_is_taken_as_given_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    once = ["ape", str(ref), str(est), "--align", "se3", "--max-diff", "0.02", "--json"]
    assert main(once) == 0
    expected = json.loads(capsys.readouterr().out)
    twice = [*once, "--align", "se3", "--max-diff", "2e-2", "--json"]  # 0.02 spelt otherwise
    assert main(twice) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_max_bytes_given_twice_is_refused_before_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["--max-bytes", "1G", "--max-bytes", "2G", "ape", "a.tum", "b.tum"])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "ERROR: robot-msgs: --max-bytes given twice (1G, 2G); give it once"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--protocol", "tum", "--align", "se3"], "ERROR: --align se3: expected the default with"),
        (["--protocol", "tum", "--all-pairs"], "ERROR: --all-pairs: expected the default False"),
        (
            ["--delta", "1", "2.5"],
            (
                "ERROR: --delta 1 2.5: expected a whole number of frames (--delta-unit s for "
                "seconds, --delta-unit m for metres), got float 2.5"
            ),
        ),
    ],
)
def test_pair_flags_that_do_not_fit_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    assert main(["rpe", str(ref), str(est), *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message), err


def test_label_stays_repeatable() -> None:
    from robot_msgs.cli import build_parser

    args = build_parser("ape").parse_args(
        ["ape", "r.tum", "a.tum", "b.tum", "--label", "a", "--label", "b"]
    )
    assert args.label == ["a", "b"]


FIRST = ["--sync", "spatial", "--spatial-pairs", "first"]
#: Why each command refuses trajectopy's pairs, after "--spatial-pairs first: expected ".
REFUSED_FIRST = [
    (["ape", *FIRST[2:]], "--sync spatial (it chooses the pairs of a spatial match; --sync"),
    (["ape", *FIRST, "--transform-right", "auto"], "--spatial-pairs path to estimate the right"),
    (["rpe", *FIRST], "--spatial-pairs path for RPE (it compares the motion between pairs"),
    (["drift", *FIRST], "--spatial-pairs path for drift (it compares the motion"),
    (["doctor", *FIRST], "--spatial-pairs path for the doctor (it compares the motion"),
    (["report", *FIRST], "--spatial-pairs path for RPE (rpe:translation:1s:all) (it compares"),
    (["bench", *FIRST], "--spatial-pairs path for RPE (rpe:translation:1s:all) (it compares"),
]


@pytest.mark.parametrize(
    ("argv", "expected"), REFUSED_FIRST, ids=[" ".join(a) for a, _ in REFUSED_FIRST]
)
def test_spatial_pairs_first_is_refused_in_flags_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    command, *flags = argv
    if command in ("report", "bench"):
        inputs = [
            "example:runs/runs.toml",
            *(["--out", str(tmp_path / "o")] * (command == "bench")),
        ]
        flags += ["--no-progress"] if command == "report" else ["--quiet"]
    else:
        inputs = list(map(str, curve_files(tmp_path, 0.0)))
    assert main([command, *inputs, *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: --spatial-pairs first: expected {expected}"), err
    assert err.count("\n") == 1
    # The flags only: no field (spatial_pairs, sync 'nearest', transform_right), no manifest.
    assert re.search(r"[a-z]_[a-z]|\[settings\]|sync '", err) is None, err
    assert "--spatial-pairs first, trajectopy's rule" in err or command == "ape"


@pytest.mark.parametrize("command", ["report", "bench"])
def test_spatial_pairs_first_in_a_manifest_is_refused_in_its_keys_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    from importlib.resources import files

    runs = tmp_path / "runs"
    shutil.copytree(str(files("robot_msgs") / "examples" / "runs"), runs)
    manifest = runs / "first.toml"
    settings = '[settings]\nsync = "spatial"\nspatial_pairs = "first"\n'
    manifest.write_text(settings + (runs / "runs.toml").read_text())
    flags = ["--out", str(tmp_path / "o"), "--quiet"] if command == "bench" else ["--no-progress"]
    assert main([command, str(manifest), *flags]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"ERROR: {manifest} [settings]: `spatial_pairs`: expected `spatial_pairs = 'path'` for "
        "RPE (rpe:translation:1s:all) (it compares the motion between pairs, which needs pairs "
        "that run forward on both sides; `spatial_pairs = 'first'`, trajectopy's rule,"
    ), err
    assert "--" not in err  # no flag: the manifest's keys


@pytest.mark.parametrize("command", ["ape", "rpe", "drift", "doctor", "report", "bench"])
def test_help_names_flags_not_fields(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ape --help` said "offset_auto: search...", "in delta_unit", "--protocol tum" (ape has none)."""
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"])
    text = capsys.readouterr().out
    fields = {name for name in declared_flags() if "_" in name}
    named = set(re.findall(r"(?<![\w`-])([a-z]+(?:_[a-z0-9]+)+)(?![\w`=])", text))
    assert named & fields - set(FINDING_KINDS) == set()  # the doctor's kinds are names
    assert "(default estimate)" not in text
    assert "(evo's 0.1) (default" not in text


@pytest.mark.parametrize("command", ["ape", "rpe", "drift", "doctor", "bench"])
def test_help_says_what_the_word_of_a_shared_flag_does(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--offset SECONDS|auto` and `--transform-right FILE|auto` never said what auto does.

    Two fields share each flag; the help was the first field's alone, so the word's
    setting (estimate the offset, or the extrinsic, from the motion) went unsaid.
    """
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    offset = text.split("--offset SECONDS|auto ", 2)[-1].split(" --max-gap", 1)[0]
    right = text.split("--transform-right FILE|auto ", 2)[-1].split(" --invert-", 1)[0]
    assert offset.startswith("added to the estimate's stamps for matching, seconds (default")
    assert "; auto: estimate the clock offset from the motion" in offset
    assert offset.endswith("and use it instead of --offset SECONDS")
    assert "; auto: estimate --transform-right FILE from the motion (hand-eye" in right


def test_the_runs_defaults_are_the_settings_with_run_changes() -> None:
    # report/bench --help show RUN_CHANGES as the defaults, to import no settings class.
    from robot_msgs.cli._settings_args import RUN_CHANGES
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.runs.run_settings import RUN_DEFAULTS

    default = EvaluationSettings()
    changed = {k: v for k, v in RUN_DEFAULTS.record().items() if v != getattr(default, k)}
    assert changed == dict(RUN_CHANGES)


@pytest.mark.parametrize("command", ["report", "bench"])
def test_the_runs_help_says_the_runs_defaults(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The flags come from the table, whose defaults are EvaluationSettings()'s: without
    # RUN_CHANGES passed (defaults_of), report --help said "--align ... (default none)"
    # while every run aligns se3 (RUN_DEFAULTS). Held against RUN_DEFAULTS itself.
    from robot_msgs.cli._settings_flags import flag_rows
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.runs.run_settings import RUN_DEFAULTS

    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    default = EvaluationSettings()
    changed = {k: v for k, v in RUN_DEFAULTS.record().items() if v != getattr(default, k)}
    assert changed  # the runs align se3
    for row in flag_rows("EvaluationSettings"):
        if row.field in changed:
            said = text.split(f" {row.name} ", 1)[1].split("(default ", 1)[1]  # its first
            assert said.startswith(f"{changed[row.field]}; or the manifest's [settings])")


@pytest.mark.parametrize(
    "command", ["traj", "doctor", "ape", "rpe", "drift", "track", "report", "bench"]
)
def test_a_choice_flag_shown_by_its_metavar_names_its_choices_in_its_help(command: str) -> None:
    """`--w-first SIDE` said neither SIDE's words nor a default: a newcomer learnt
    reference, estimate and both from the error of a wrong guess; `--statistic FIELD` the
    same (its default alone). A flag whose usage shows a metavar, not its choices, names
    them in its help."""
    from robot_msgs.cli import build_parser

    parser = build_parser(command)
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    said: dict[str, bool] = {}
    for action in sub.choices[command]._actions:
        if action.choices and action.metavar and action.help:
            named = [
                c for c in action.choices if re.search(rf"(?<![\w-]){c}(?![\w-])", action.help)
            ]
            said[action.option_strings[0]] = len(named) > 1  # more than its default
    assert said, "no choice flag shown by a metavar"
    assert [flag for flag, named in said.items() if not named] == []


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["ape", "r.tum", "e.tum", "--max-diff", "20ms"],
         "ape: argument --max-diff: '20ms' is 0.02 s: give the number alone (--max-diff 0.02)"),
        (["ape", "r.tum", "e.tum", "--t-start", "5s"],
         "ape: argument --t-start: '5s' is 5 s: give the number alone (--t-start 5)"),
        (["ape", "r.tum", "e.tum", "--sync", "spatial", "--max-distance", "50cm"],
         "ape: argument --max-distance: '50cm' is 0.5 m: give the number alone (--max-distance 0.5)"),
        (["track", "c.csv", "m.csv", "--delay", "10 ms"],
         "track: argument --delay: '10 ms' is 0.01 s: give the number alone (--delay 0.01)"),
        (["ape", "r.tum", "e.tum", "--max-diff", "20", "ms"],
         "ape: argument --max-diff: '20 ms' is 0.02 s: give the number alone (--max-diff 0.02)"),
        (["ape", "r.tum", "--max-diff=20", "ms", "e.tum"],
         "ape: argument --max-diff: '20 ms' is 0.02 s: give the number alone (--max-diff 0.02)"),
        (["track", "c.csv", "m.csv", "--delay", "10", "ms"],
         "track: argument --delay: '10 ms' is 0.01 s: give the number alone (--delay 0.01)"),
        # Apart, the number and a word that is a unit: each answered by the package,
        # not argparse's 'unrecognized arguments: m', 'invalid float value: 'm''
        # or "expected seconds or 'auto', got '-20 ms'" (seen on the old code).
        (["ape", "r.tum", "e.tum", "--max-diff", "20", "m"],
         "ape: argument --max-diff: '20 m': --max-diff takes seconds, not m: give the number of seconds alone"),
        (["ape", "r.tum", "e.tum", "--offset", "-20", "ms"],
         "ape: argument --offset: '-20 ms' is -0.02 s: give the number alone (--offset -0.02)"),
        (["rpe", "r.tum", "e.tum", "--delta", "1", "2", "m"],
         "rpe: argument --delta: '1 2 m': the unit is its own flag (--delta 1 2 --delta-unit m)"),
        (["rpe", "r.tum", "e.tum", "--delta", "10", "ms"],
         "rpe: argument --delta: '10 ms': --delta takes numbers without a unit (--delta 10)"),
        (["drift", "r.tum", "e.tum", "--seconds", "10", "s"],
         "drift: argument --seconds: '10 s': --seconds takes numbers without a unit (--seconds 10)"),
        (["ape", "r.tum", "e.tum", "--max-diff", "2m"],
         "ape: argument --max-diff: invalid float value: '2m'"),  # metres for seconds: no guess
        (["ape", "r.tum", "e.tum", "--max-diff", "1e400ms"],
         "ape: argument --max-diff: invalid float value: '1e400ms'"),  # not --max-diff inf
        (["ape", "r.tum", "e.tum", "--max-diff", "5μs"],
         "ape: argument --max-diff: '5μs' is 5e-06 s: give the number alone (--max-diff 5e-06)"),
    ],
)  # fmt: skip
def test_a_number_typed_with_its_unit_is_answered_with_the_number_alone(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--max-diff 20ms`` was told "invalid float value: '20ms'" and no more: the flag's
    unit (its metavar, SECONDS or METRES) is not written, and 20 ms is 0.02 of them."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(argv)
    assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs {said}"
