"""evo's flags are answered with ours, under the command's own usage (issue 21)."""

from __future__ import annotations

import json
import math
import os
import pty
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from robot_msgs.cli import COMMANDS, _options_of, main
from robot_msgs.cli.evo_flags import (
    _TRANSFORM_ORDER,
    EVO_FLAGS,
    EVO_FLAGS_BY_COMMAND,
    EVO_WITHOUT,
)
from robot_msgs.evaluation.settings import DELTA_UNITS
from tests.terminal import Terminal

# (command, evo's words, the flag the answer must name)
CASES = [
    ("ape", ["-a"], "--align se3"),
    ("ape", ["-as"], "--align sim3"),
    ("ape", ["-s"], "--align scale"),
    ("ape", ["--align_origin"], "--align origin"),
    ("ape", ["-r", "trans_part"], "--relation"),
    ("ape", ["--pose_relation", "angle_deg"], "--relation"),
    ("rpe", ["-d", "10"], "--delta"),
    ("rpe", ["-u", "m"], "--delta-unit"),
    ("rpe", ["--delta_unit", "m"], "--delta-unit"),
    ("rpe", ["--all_pairs"], "--all-pairs"),
    ("ape", ["--plot"], "--plot FILE"),
    ("ape", ["-p"], "--plot FILE"),
    ("ape", ["--plot_mode", "xz"], "--plot-plane"),
    ("ape", ["--save_results", "a.zip"], "--save a.json"),  # the name typed, our suffix
    ("ape", ["--save_results=out/a"], "--save out/a.json"),
    ("traj", ["--save_as_kitti", "o.txt"], "--save o.kitti"),
    ("ape", ["--n_to_align", "10"], "--n-align"),
    ("ape", ["--t_max_diff", "0.02"], "--max-diff"),
    ("ape", ["--t_max_diff=0.02"], "--max-diff"),
    ("rpe", ["--t_offset", "0.1"], "--offset"),
    ("ape", ["-va"], "--align se3"),
    ("traj", ["--save_as_tum"], "--save FILE.tum"),
    ("traj", ["-p"], "--plot FILE"),
    ("rpe", ["--delta_tol", "0.1"], "--delta-tol"),
    ("ape", ["--serialize_plot", "x.pdf"], "--plot x.pdf"),
    ("traj", ["--full_check"], "--check"),
    ("ape", ["-a", "-s"], "--align sim3"),
    ("ape", ["--align", "-s"], "--align sim3"),
    ("ape", ["--align_origin", "--correct_scale"], "--align origin_scale"),
    ("traj", ["--sync"], "--sync nearest"),  # a switch in evo_traj
    ("ape", ["--sync_method", "nearest"], "--sync METHOD"),
    ("traj", ["--transform_left", "t.json"], "--transform-left t.json"),
    ("traj", ["--transform_right", "t.json"], "--transform-right t.json"),
    ("traj", ["--invert_transform"], "--invert-transform-left/right"),
    ("res", ["--save_table", "t.csv"], "--csv t.csv"),
    ("traj", ["-f"], "--check"),
    ("rpe", ["-t", "0.3"], "--delta-tol 0.3"),  # evo_rpe's short --delta_tol
    ("traj", ["--ref_file", "gt.tum"], "--ref gt.tum"),  # not "REF as the first argument"
    ("traj", ["--all_topics"], "--topic T1 --topic T2"),  # not "none here": each a --topic
]


@pytest.mark.parametrize(("command", "words", "ours"), CASES, ids=[" ".join(c[1]) for c in CASES])
def test_an_evo_flag_is_answered_with_ours_and_the_commands_usage(
    command: str, words: list[str], ours: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, "ref.txt", "est.txt", *words])
    err = capsys.readouterr().err
    assert err.startswith(f"usage: robot-msgs {command} ")
    last = err.strip().splitlines()[-1]
    flag = words[0].split("=")[0]
    several = " ".join(w for w in words if w.startswith("-"))  # evo's switches said together
    assert last.startswith(
        (f"ERROR: robot-msgs {command}: {flag} is ", f"ERROR: robot-msgs {command}: {several} are ")
    )
    assert f"evo; here: {ours}" in last or f"evo's; here: {ours}" in last


@pytest.mark.parametrize(
    ("command", "flag", "typed", "words"),
    [
        ("ape", "--save_results", "my res.zip", ["--save", "my res.json"]),
        ("ape", "--save_results", "a;rm -rf x.zip", ["--save", "a;rm -rf x.json"]),
        ("ape", "--save_results", "$(x).zip", ["--save", "$(x).json"]),
        ("ape", "--save_results", "x.", ["--save", "x.json"]),
        ("ape", "--save_results", "résultat.zip", ["--save", "résultat.json"]),
        ("ape", "--save_results", "x.tar.gz", ["--save", "x.json"]),
        ("ape", "--save_results", "out/r.json.xz", ["--save", "out/r.json"]),
        ("ape", "--save_results", "run.v2.zip", ["--save", "run.v2.json"]),
        ("ape", "--save_results", "run.2024.gz", ["--save", "run.2024.json"]),
        ("ape", "--save_results", "fr1.results.gz", ["--save", "fr1.results.json"]),
        ("ape", "--save_results", ".json.gz", ["--save", ".json"]),
        ("ape", "--save_results", "out/.json.gz", ["--save", "out/.json"]),
        ("traj", "--save_as_kitti", "o.tar.bz2", ["--save", "o.kitti"]),
        ("traj", "--save_as_kitti", "o u.txt", ["--save", "o u.kitti"]),
        ("ape", "--save_plot", "p l.png", ["--plot", "p l.png"]),
    ],
)
def test_an_evo_flags_file_is_answered_as_the_shell_reads_it(
    command: str,
    flag: str,
    typed: str,
    words: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "--save_results 'my res.zip'" was answered "--save my res.json": pasted, two words,
    # and "a;rm -rf x.zip" a second command; "x." was answered "x..json", "x.tar.gz"
    # "x.tar.json" (a compressed file's suffixes are one: .tar.gz, .json.xz).
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, "ref.txt", "est.txt", flag, typed])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    answer = last.partition("; here: ")[2]
    assert shlex.split(answer) == words, answer
    if "$" in typed:  # shlex.split expands nothing; a shell would, unquoted
        assert f"'{words[1]}'" in answer


@pytest.mark.parametrize(
    ("flag", "said"),
    [
        ("-s", "--align scale (-a -s: --align sim3)"),
        ("--correct_scale", "--align scale"),  # the aside past 80 columns is cut
    ],
)
def test_evos_scale_flag_says_sim3_of_it_with_a_in_evos_words(
    flag: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # "--align scale (-a: sim3)" read as if -a meant sim3 (a review): the aside names
    # evo's flags together and our flag for them.
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["rpe", "ref.txt", "est.txt", flag])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == f"ERROR: robot-msgs rpe: {flag} is evo's; here: {said}"
    assert "(-a: sim3)" not in EVO_FLAGS[flag]


def test_an_unknown_flag_shows_the_commands_usage_not_the_top_level_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["rpe", "ref.txt", "est.txt", "--bogus"])
    err = capsys.readouterr().err
    assert err.startswith("usage: robot-msgs rpe ")
    assert err.strip().endswith("ERROR: robot-msgs rpe: unrecognized arguments: --bogus")


def test_every_answer_names_a_flag_of_ours_or_says_none_is_needed() -> None:
    for answer in EVO_FLAGS.values():
        assert answer.startswith(("--", "nothing:", "REF "))


def test_our_own_flags_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ape", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum",
                 "--align", "se3"]) == 0  # fmt: skip
    assert "APE" in capsys.readouterr().out


# (command, evo's words after the command, the answer's last line after "ERROR: robot-msgs COMMAND: ")
SYNTAX = [
    ("ape", ["tum", "gt.txt", "est.txt"], "tum is evo's; here: REF EST [--format tum]"),
    ("rpe", ["kitti", "gt.txt", "est.txt"], "kitti is evo's; here: REF EST [--format kitti]"),
    ("ape", ["euroc", "gt.csv", "est.txt"], "euroc is evo's; here: REF EST (formats detected)"),
    (
        "ape",
        ["--align", "se3", "bag", "x.bag", "/a", "/b"],
        "bag is evo's; here: `robot-msgs ape x.bag x.bag --ref-topic /a --est-topic /b`",
    ),
    (
        "rpe",
        ["bag2", "folder", "/groundtruth", "/S-PTAM"],
        (
            "bag2 is evo's; here: `robot-msgs rpe folder folder --ref-topic /groundtruth "
            "--est-topic /S-PTAM`"
        ),
    ),
    ("traj", ["tum", "a.txt", "b.txt"], "tum is evo's; here: FILE... [--format tum]"),
    # doctor and drift take REF EST as ape does: `doctor tum a b` was told "unrecognized
    # arguments: b"
    ("doctor", ["tum", "gt.txt", "est.txt"], "tum is evo's; here: REF EST [--format tum]"),
    ("drift", ["kitti", "gt.txt", "est.txt"], "kitti is evo's; here: REF EST [--format kitti]"),
    # the command to type, whole, however wide: `ape bag2 nav2_turtlebot.mcap /amcl_pose
    # /odom` was answered `--ref-topic T1 --est-topic T2`, the names dropped to fit 80
    # columns (as `BAG BAG` was where it did not fit, or the bag in any case)
    (
        "doctor",
        ["bag", "x.bag", "/a", "/b"],
        "bag is evo's; here: `robot-msgs doctor x.bag x.bag --ref-topic /a --est-topic /b`",
    ),
    (
        "ape",
        ["bag2", "nav2_turtlebot.mcap", "/amcl_pose", "/odom"],
        (
            "bag2 is evo's; here: `robot-msgs ape nav2_turtlebot.mcap nav2_turtlebot.mcap "
            "--ref-topic /amcl_pose --est-topic /odom`"
        ),
    ),
    (  # a topic left out: its placeholder; a name a shell splits: quoted
        "ape",
        ["bag", "my run.bag", "/gt"],
        (
            "bag is evo's; here: `robot-msgs ape 'my run.bag' 'my run.bag' --ref-topic /gt "
            "--est-topic T2`"
        ),
    ),
    ("ape", ["bag"], "bag is evo's; here: BAG BAG --ref-topic T1 --est-topic T2"),
    (
        "traj",
        ["bag", "x.bag", "/odom"],
        "bag is evo's; here: `robot-msgs traj x.bag --topic /odom`",
    ),
    # evo_traj draws each topic, as traj does each --topic (one run: `BAG --topic /a, then
    # BAG --topic /b` was told, and `--topic /a --topic /b` was refused as given twice)
    (
        "traj",
        ["bag", "x.bag", "/a", "/b"],
        "bag is evo's; here: `robot-msgs traj x.bag --topic /a --topic /b`",
    ),
    # evo_traj's --ref names a topic in its bag mode: REF's --ref-topic (ape's was told)
    (
        "traj",
        ["bag", "x.bag", "/a", "/b", "--ref", "/a"],
        "bag is evo's; here: `robot-msgs traj x.bag --topic /b --ref-topic /a`",
    ),
    (
        "traj",
        ["bag", "ROS_example.bag", "ORB-SLAM", "--ref", "groundtruth"],
        (
            "bag is evo's; here: `robot-msgs traj ROS_example.bag --topic ORB-SLAM --ref-topic "
            "groundtruth`"
        ),
    ),
]


@pytest.mark.parametrize(
    ("command", "words", "answer"), SYNTAX, ids=[" ".join(c[1]) for c in SYNTAX]
)
def test_evos_format_first_order_is_answered_with_ours_and_the_commands_usage(
    command: str,
    words: list[str],
    answer: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # no file named as a format here
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, *words])
    err = capsys.readouterr().err
    assert err.startswith(f"usage: robot-msgs {command} ")
    last = err.strip().splitlines()[-1]
    assert last == f"ERROR: robot-msgs {command}: {answer}"
    assert len(last) <= 80 or "`" in answer  # a command to type is said whole


@pytest.mark.parametrize("command", ["ape", "rpe", "traj", "res"])
def test_evos_no_warnings_is_answered_with_force(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # evo's --no_warnings overwrites without asking (confirm_overwrite=not no_warnings);
    # "nothing: no prompts here" left a script that relied on it refused at an existing
    # output, which only --force replaces here.
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, "a.txt", "b.txt", "--no_warnings"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"ERROR: robot-msgs {command}: --no_warnings is evo's; here: --force (to overwrite)"
    )


@pytest.mark.parametrize("command", ["ape", "rpe", "drift", "doctor"])
def test_one_bag_with_both_topics_is_told_to_give_the_bag_twice(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `bag2 x.mcap /odom /amcl_pose` is answered `--ref-topic T1 --est-topic T2` where BAG
    # BAG does not fit 80 columns; typed so, the bag once, argparse said only "the
    # following arguments are required: EST".
    said = (
        f"ERROR: robot-msgs {command}: EST: a bag's two topics are REF and EST, the bag "
        "given twice: x.mcap x.mcap --ref-topic /odom --est-topic /amcl_pose"
    )
    for evo, also in (([], ""), (["-a"], "; -a is evo's; here: --align se3")):
        with pytest.raises(SystemExit, match=r"^2$"):
            main([command, "x.mcap", "--ref-topic", "/odom", "--est-topic=/amcl_pose", *evo])
        assert capsys.readouterr().err.strip().splitlines()[-1] == said + also


def test_one_file_not_a_bag_with_a_topic_is_told_est_is_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # `ape gt.txt --est-topic /odom` (EST left out) was told to give gt.txt twice, as a bag.
    gt = tmp_path / "gt.txt"
    gt.write_text("0 0 0 0 0 0 0 1\n")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", str(gt), "--est-topic", "/odom"])
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said == (
        "ERROR: robot-msgs ape: needs two trajectories: REF (the reference) then EST (the "
        "estimate); EST is missing"
    )
    folder = tmp_path / "run"  # a ROS 2 bag folder, and a bag by --format, are bags
    folder.mkdir()
    for given in ([str(folder)], [str(gt), "--format", "bag2"]):
        with pytest.raises(SystemExit, match=r"^2$"):
            main(["ape", *given, "--est-topic", "/odom"])
        assert "the bag given twice" in capsys.readouterr().err


def test_evos_format_first_and_its_flags_are_answered_together(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # evo's most common line, `evo_ape tum GT EST -va`, was answered for -va alone; with
    # --align se3 typed instead, it was answered again, for tum.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "tum", "gt.txt", "est.txt", "-va"])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == (
        "ERROR: robot-msgs ape: tum is evo's; here: REF EST [--format tum]; "
        "-va is evo's; here: --align se3 (-v is not needed)"
    )


def test_a_file_named_as_a_format_is_still_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    rows = "".join(f"{t} {t} 0 0 0 0 0 1\n" for t in range(5))
    (tmp_path / "tum").write_text(rows)
    (tmp_path / "est.txt").write_text(rows)
    assert main(["ape", "tum", "est.txt"]) == 0
    assert "APE" in capsys.readouterr().out


def test_a_command_line_error_is_a_short_usage_and_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ape's full usage ran to 25 lines above the one line saying what was wrong."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "ref.txt", "est.txt", "-as"])
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "usage: robot-msgs ape [options] REF EST [EST ...]",
        "       (robot-msgs ape --help lists them)",
        "ERROR: robot-msgs ape: -as is evo's; here: --align sim3",
    ]


@pytest.mark.parametrize("flag", ["--save_as_tum", "--save_as_kitti", "--save_as_bag"])
def test_a_save_as_answer_names_a_file_traj_writes(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """evo's --save_as_bag was answered --save FILE.bag, which traj refuses (no ROS 1 writer)."""
    if flag == "--save_as_bag":
        pytest.importorskip("rosbags")
    out = tmp_path / EVO_FLAGS[flag].split()[1].replace("FILE", "out")
    assert main(["traj", "example:fr1_xyz/rgbdslam.tum", "--save", str(out)]) == 0
    assert out.stat().st_size > 0
    capsys.readouterr()


def test_plot_x_dimension_is_not_answered_with_a_plane() -> None:
    """evo's --plot_x_dimension picks the x axis (index, seconds, distances), not a plane."""
    assert "--plot-plane" not in EVO_FLAGS["--plot_x_dimension"]


@pytest.mark.parametrize("command", ["ape", "rpe", "traj", "res"])
def test_every_evo_answer_fits_an_80_column_terminal(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The answers ran to 106 columns (``--full_check``), folded mid-word by the terminal.

    An answer that is our flag alone (``--pairs-from-reference``), or with its value
    and the command that has it (``traj``: ``ape --project-to-plane xy``), has no aside
    to cut.
    """
    answers = {**EVO_FLAGS, **EVO_FLAGS_BY_COMMAND.get(command, {})}
    for flag, answer in answers.items():
        with pytest.raises(SystemExit, match=r"^2$"):
            main([command, "ref.txt", "est.txt", flag])
        last = capsys.readouterr().err.strip().splitlines()[-1]
        last = last.removesuffix(f"; {_TRANSFORM_ORDER}")  # a note, said after the answer
        head, _, aside = answer.partition(" (")
        kept = f"( \\({re.escape(aside)})?" if aside else ""
        assert re.search(rf"here: (\w+ )?{re.escape(head)}{kept}$", last), last
        assert len(last) <= 80 or not re.search(r"[(:]", last.split("here: ")[1]), last


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_answer_names_a_flag_of_the_command_it_names(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape -d 1`` was answered ``--delta 1``, a flag ape lacks (rpe has it).

    The answer's flag is the typed command's own, or the answer names the command
    that has it first (``rpe --delta 1``), and that command parses it.
    """
    for flag in {**EVO_FLAGS, **EVO_FLAGS_BY_COMMAND.get(command, {})}:
        with pytest.raises(SystemExit, match=r"^2$"):
            main([command, "ref.txt", "est.txt", flag])
        answer = capsys.readouterr().err.strip().splitlines()[-1].split("here: ", 1)[1]
        words = answer.split()
        ours = next((w.split("/")[0] for w in words if w.startswith("--")), None)
        if ours is None:
            continue
        named = words[0] if words[0] in COMMANDS else command
        if ours in _options_of(named):
            continue
        # Kept as the table says only when no command has the flag.
        assert not any(ours in _options_of(c) for c in COMMANDS), (command, flag, answer)


def test_several_answers_of_another_command_name_it_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ape REF EST -d 10 -u m`` was told ``rpe --delta 10 rpe --delta-unit m`` (a review)."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "ref.txt", "est.txt", "-d", "10", "-u", "m"])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "ERROR: robot-msgs ape: -d -u are evo's; here: rpe --delta 10 --delta-unit m"


def test_ape_answers_evos_save_as_with_the_aligned_estimate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape --save_as_tum`` was answered ``--save FILE.tum``, which ape refuses (a result)."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "ref.txt", "est.txt", "--save_as_tum"])
    answer = capsys.readouterr().err.strip().splitlines()[-1].split("here: ", 1)[1]
    flag, name = answer.split()
    out = tmp_path / name.replace("FILE", "aligned")
    example = ["example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"]
    assert main(["ape", *example, "--align", "se3", flag, str(out), "--quiet"]) == 0
    assert len(out.read_text().splitlines()) > 100
    capsys.readouterr()


def test_traj_answers_evo_trajs_merge_not_evo_ress(capsys: pytest.CaptureFixture[str]) -> None:
    """evo_traj's --merge joins its files into one; traj was answered with evo_res's meaning."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["traj", "a.txt", "b.txt", "--merge"])
    assert "res" not in capsys.readouterr().err.strip().splitlines()[-1]


def test_res_answers_evo_ress_merge_as_no_pooling(capsys: pytest.CaptureFixture[str]) -> None:
    """evo_res's --merge pools the results into one statistic; 'res tables them all' read
    as if res did that too (a review)."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["res", "a.json", "--merge"])
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said.endswith("--merge is evo's; here: nothing: no pooled statistic")


@pytest.mark.parametrize("command", ["ape", "rpe", "traj", "res", "report", "bench"])
def test_the_short_usage_is_folded_to_the_terminals_width(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one-line usage ran to 84-114 columns (bench: MANIFEST_OR_FOLDER twice)."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, "a", "b", *(["--out", "o"] if command == "bench" else []), "--bogus"])
    *usage, last = capsys.readouterr().err.splitlines()
    assert last == f"ERROR: robot-msgs {command}: unrecognized arguments: --bogus"
    assert all(len(line) <= 80 for line in usage), usage
    said = " ".join(line.strip() for line in usage)
    assert said.startswith(f"usage: robot-msgs {command} [options] ")
    assert said.endswith(f"(robot-msgs {command} --help lists them)")


@pytest.mark.parametrize(
    ("words", "answer"),
    [
        (["-r", "trans_part"], "--relation trans_part"),
        (["--pose_relation=angle_deg"], "--relation angle_deg"),
        (["--t_max_diff", "0.02"], "--max-diff 0.02"),
        (["--t_offset", "-0.3"], "--offset -0.3"),  # a negative number is a value
        (["-u", "d"], "--delta-unit deg"),  # evo's units said as ours
        (["-u", "r"], "--delta-unit rad"),
        (["-u", "x"], "--delta-unit UNIT"),  # not one of evo's: the placeholder
        (["-u", "s"], "--delta-unit s"),  # not evo's, but ours: said as typed
        (["--delta_unit", "deg"], "--delta-unit deg"),
        (["-r", "--all_pairs"], "--relation RELATION --all-pairs"),  # no value given; both
        # every evo flag at once: rpe answered --delta_unit, then --all_pairs a try later
        (["--delta", "1", "--delta_unit", "m", "--all_pairs"], "--delta-unit m --all-pairs"),
        (["--sync_method", "nearest"], "--sync METHOD"),  # evo's methods are not ours
        # a file and a plane were not carried (the answer said FILE, PLANE; a hunt)
        (["--save_plot", "x.pdf"], "--plot x.pdf"),
        (["--plot_mode", "xz"], "--plot-plane xz"),
        (["--plot_mode", "zy"], "--plot-plane PLANE"),  # evo's, not a plane of ours
        # KITTI's ground plane: it was answered --project-to-plane xy whatever was typed
        (["--project_to_plane", "xz"], "--project-to-plane xz"),
        (["--project_to_plane", "yz"], "--project-to-plane yz"),
        (["--project_to_plane"], "--project-to-plane PLANE"),
        (["--project_to_plane", "xyz"], "--project-to-plane PLANE"),  # a view, no plane
        # evo's one-letter flags with the value joined, as argparse takes them: evo_rpe
        # 1.38.1 `-rangle_deg -d10 -uf` gives -r angle_deg -d 10 -u f's rmse 0.701571
        # deg; they were "unrecognized arguments"
        (["-rangle_deg", "-d10", "-uf"], "--relation angle_deg --delta 10 --delta-unit f"),
        (["-ud"], "--delta-unit deg"),
        (["-t0.2"], "--delta-tol 0.2"),
    ],
)
def test_an_answer_carries_the_value_typed_after_evos_flag(
    words: list[str], answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["rpe", "ref.txt", "est.txt", *words])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith(f"evo's; here: {answer}")


@pytest.mark.parametrize(
    ("command", "words", "said"),
    [
        (  # evo_rpe 1.38.1: "argument -d/--delta: invalid float value: 'm'"
            "ape",
            ["-dm"],
            (
                "-dm is evo's; here: rpe --delta D; evo's -d takes a number, not 'm' (evo "
                "refuses -dm); -u m is the unit: rpe --delta-unit m"
            ),
        ),
        (
            "rpe",
            ["-d", "m"],
            (
                "-d is evo's; here: --delta D; evo's -d takes a number, not 'm'; -u m is the "
                "unit: --delta-unit m"
            ),
        ),
        (  # the unit typed too is said once, as its answer (it was said twice)
            "rpe",
            ["-d", "m", "-u", "m"],
            "-d -u are evo's; here: --delta D --delta-unit m; evo's -d takes a number, not 'm'",
        ),
        (
            "ape",
            ["--t_max_diff", "x"],
            (
                "--t_max_diff is evo's; here: --max-diff SECONDS; evo's --t_max_diff takes "
                "a number, not 'x'"
            ),
        ),
    ],
)
def test_a_word_that_is_no_number_is_not_answered_as_a_flags_number(
    command: str, words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ape -dm` was answered `--delta m`: evo's -d takes a number (evo refuses -dm), and
    so does ours; the unit is -u m."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, "ref.txt", "est.txt", *words])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == f"ERROR: robot-msgs {command}: {said}"


@pytest.mark.parametrize("unit", DELTA_UNITS)
def test_delta_unit_answer_carries_every_unit_the_settings_declare(
    unit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The answer's units come from the settings' DELTA_UNITS, not a list of their own."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["rpe", "ref.txt", "est.txt", "-u", unit])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith(f"evo's; here: --delta-unit {unit}")


@pytest.mark.parametrize("command", ["ape", "rpe", "traj", "res"])
def test_evo_flags_with_no_equivalent_are_answered_not_unrecognized(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--downsample``, ``--plot_full_ref``, ``-c``... said "unrecognized arguments"."""
    for flag in [f for f in EVO_WITHOUT if f not in EVO_FLAGS_BY_COMMAND.get(command, {})]:
        with pytest.raises(SystemExit, match=r"^2$"):
            main([command, "ref.txt", "est.txt", flag, "1"])
        last = capsys.readouterr().err.strip().splitlines()[-1]
        assert last == f"ERROR: robot-msgs {command}: {flag} is evo's; none here"
        assert len(last) <= 80


@pytest.mark.parametrize("command", list(COMMANDS))
def test_no_evo_word_hides_a_flag_of_ours(command: str) -> None:
    """evo's words are looked up before parsing: one that is also our flag would shadow it."""
    evo = {*EVO_FLAGS, *EVO_FLAGS_BY_COMMAND.get(command, {}), *EVO_WITHOUT}
    assert not evo & _options_of(command)


def test_evos_sync_method_values_are_said_as_ours(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "ref.txt", "est.txt", "--sync_method", "nearest_time"])
    assert capsys.readouterr().err.strip().endswith("here: --sync nearest")


def test_evos_interpolation_is_not_said_to_be_our_interpolate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """evo's interpolation was answered ``--sync interpolate``, another rule (80 pairs, 54)."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["rpe", "ref.txt", "est.txt", "--sync_method", "interpolation"])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "ERROR: robot-msgs rpe: --sync_method is evo's; here: --sync interpolate-longer"


@pytest.mark.parametrize("command", list(COMMANDS))
def test_an_answer_naming_a_file_names_a_command_that_writes_it(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``res --save_as_tum`` was answered ``ape --save FILE.tum``, which ape refuses (its
    --save writes a result), and ``traj --save_results`` ``--save FILE.json``, which traj
    refuses (its --save writes a trajectory): the answer, run as said, writes the file."""
    example = ["example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"]
    inputs = {"traj": example[1:], "drift": [*example, "--lengths", "2"]}
    for flag in ("--save_as_tum", "--save_as_kitti", "--save_results"):
        with pytest.raises(SystemExit, match=r"^2$"):
            main([command, "ref.txt", "est.txt", flag])
        words = capsys.readouterr().err.strip().splitlines()[-1].split("here: ", 1)[1].split()
        named, (ours, name) = (words[0], words[1:]) if words[0] in COMMANDS else (command, words)
        out = tmp_path / name.replace("FILE", f"{command}{flag}")
        given = [named, *inputs.get(named, example), ours, str(out)]
        assert main(given) == 0, given
        assert out.stat().st_size > 0, given
        capsys.readouterr()


def test_a_flag_needing_nothing_is_said_apart_from_the_flags_to_type(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `res a.json b.json -p --use_filenames` answered "here: --plot FILE nothing: named
    # by file", the two answers run into one (a hunt).
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["res", "a.json", "-p", "--use_filenames"])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith(
        "-p --use_filenames are evo's; here: --plot FILE; --use_filenames: named by file"
    )
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["res", "a.json", "-v", "--silent"])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith("-v --silent are evo's; -v: the table is printed; --silent: > /dev/null")


def test_the_answer_to_silent_is_true_the_tables_go_to_stdout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--silent was answered "messages go to stderr", but res prints its tables to stdout."""
    zipped = Path(__file__).parents[1] / "data" / "evo_results" / "fr1_xyz_ape_se3.zip"
    assert main(["res", str(zipped)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Results\n")
    assert "Results" not in err
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["res", str(zipped), "--silent"])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.endswith("--silent is evo's; here: nothing: > /dev/null")


@pytest.mark.parametrize(
    ("argv", "answer"),
    [
        (["ape", "r.txt", "e.txt"], "here: --quiet > /dev/null"),
        (["rpe", "r.txt", "e.txt"], "here: --quiet > /dev/null"),
        (["drift", "r.txt", "e.txt"], "here: --quiet > /dev/null"),
        (["traj", "e.txt"], "here: nothing: > /dev/null"),  # no progress line: no --quiet
        (["res", "a.json"], "here: nothing: > /dev/null"),
    ],
)
def test_silent_is_answered_with_what_silences_each_command(
    capsys: pytest.CaptureFixture[str], argv: list[str], answer: str
) -> None:
    """evo's --silent prints nothing but warnings and errors. ape, rpe and drift were
    answered "> /dev/null", which leaves their progress line (stderr, on a terminal, for
    a step over 2 s): --quiet ends it. traj and res show none, and have no --quiet."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main([*argv, "--silent"])
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(f"--silent is evo's; {answer}")


def test_our_own_flags_typed_with_evo_underscores_are_answered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # evo spells every flag with underscores: --t_start was answered (evo has it), but
    # ours alone (--max_diff, --save_aligned) were "unrecognized arguments".
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", "--max_diff", "0.1", "--save_aligned", "a.tum"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs ape: --max_diff --save_aligned are spelled --max-diff "
        "--save-aligned here"
    )
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["traj", "e.tum", "--save_topic", "/x"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs traj: --save_topic is spelled --save-topic here"
    )


def test_our_own_flag_cut_short_with_underscores_is_not_said_to_be_another_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``ape R E --max_dif 0.1`` (argparse's abbreviation of --max-diff, typed with evo's
    underscore) was told "--max-dif (--max-diff) is a flag of traj, doctor, rpe, drift,
    report and bench, not of ape", and ``--save_align`` that --save-aligned is rpe's and
    drift's: ape has both. It is said as our flag typed with underscores is."""
    cases = {
        ("ape", "--max_dif", "0.1"): "--max_dif is spelled --max-diff here",
        ("ape", "--save_align", "a.tum"): "--save_align is spelled --save-aligned here",
        ("ape", "--transform_lef", "t.json"): "--transform_lef is spelled --transform-left here",
    }
    for (command, *words), said in cases.items():
        with pytest.raises(SystemExit, match=r"^2$"):
            main([command, "r.tum", "e.tum", *words])
        assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs {command}: {said}"


# (the words after `ape REF EST`, the error line after "ERROR: robot-msgs COMMAND: "): every unknown word is
# said in the one error, so the user does not fix one and meet the next.
EVERY_UNKNOWN = [
    (
        ["--max_diff", "0.1", "--bogus"],
        "--max_diff is spelled --max-diff here; unrecognized arguments: --bogus",
    ),
    (
        ["--max_diff", "0.1", "--delta", "1", "--bogus", "x"],
        (
            "--max_diff is spelled --max-diff here; --delta is rpe's, not ape's; "
            "unrecognized arguments: --bogus x"
        ),
    ),
    (
        ["-va", "--bogus", "--zap=3"],
        (
            "-va is evo's; here: --align se3 (-v is not needed); "
            "unrecognized arguments: --bogus --zap=3"
        ),
    ),
    (
        ["-va", "--max_diff", "0.1"],
        (
            "-va is evo's; here: --align se3 (-v is not needed); "
            "--max_diff is spelled --max-diff here"
        ),
    ),
    # evo's README line: the switch --plot was said, -va and --save_results a try later
    (
        ["-va", "--plot", "--save_results", "r.zip"],
        (
            "-va --save_results are evo's; here: --align se3 --save r.json; "
            "--plot is a switch in evo; here: --plot FILE"
        ),
    ),
    (
        ["--plot_markers", "-va", "--all_channels"],
        (
            "-va is evo's; here: --align se3 (-v is not needed); "
            "--plot_markers --all_channels are evo's; none here"
        ),
    ),
    (
        ["-a", "-s", "--t_max_diff", "0.02"],
        "-a -s --t_max_diff are evo's; here: --align sim3 --max-diff 0.02",
    ),
]


@pytest.mark.parametrize(
    ("words", "said"), EVERY_UNKNOWN, ids=[" ".join(c[0]) for c in EVERY_UNKNOWN]
)
def test_every_unknown_word_is_said_in_the_one_error(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", *words])
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"ERROR: robot-msgs ape: {said}"
    assert sum("ERROR:" in line for line in err) == 1


def test_evos_format_word_and_an_unknown_flag_are_said_together(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ape tum GT EST --bogus`` was told of tum; --bogus came a try later. On a
    terminal the line is folded to its width, as every usage error is."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "tum", "gt.txt", "est.txt", "--bogus"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs ape: tum is evo's; here: REF EST [--format tum]; "
        "unrecognized arguments: --bogus"
    )
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "gt.txt", "est.txt", "-va", "--plot", "--save_results", "r.zip", "--bogus"])
    shown = terminal.getvalue().splitlines()
    at = next(k for k, line in enumerate(shown) if "ERROR:" in line)
    said = " ".join(line.strip() for line in shown[at:])
    assert said == (
        "ERROR: robot-msgs ape: -va --save_results are evo's; here: --align se3 --save "
        "r.json; --plot is a switch in evo; here: --plot FILE; unrecognized arguments: --bogus"
    )
    assert len(shown) - at == 3
    assert all(len(line) <= 80 for line in shown)


def test_a_flag_of_ours_abbreviated_is_not_said_unknown_beside_an_evo_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # argparse takes --forc for --force: only the evo flag is answered.
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", "-va", "--forc", "--offset", "-0.5", "--save", "-"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs ape: -va is evo's; here: --align se3 (-v is not needed)"
    )


@pytest.mark.parametrize(
    ("words", "said"),
    [
        # was "--plot FILE --plot x.png"
        (
            ["-vas", "-p", "--save_plot=x.png"],
            "-vas -p --save_plot are evo's; here: --align sim3 --plot x.png",
        ),
        (["--plot", "--save_plot", "x.pdf"], "--save_plot is evo's; here: --plot x.pdf"),
    ],
)
def test_an_answer_names_each_flag_of_ours_once(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The answer, typed as said, was refused: "--plot given twice"."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", *words])
    assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs ape: {said}"


def test_our_flags_typed_with_one_hyphen_or_capitals_are_answered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `ape R E -align se3` and `--Align se3` were "unrecognized arguments: -align se3"
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", "-align", "se3", "--Max-Diff", "0.1", "-save_aligned=a.tum"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs ape: -align --Max-Diff -save_aligned are spelled --align --max-diff "
        "--save-aligned here"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["traj", "e.tum", "-ref", "r.tum"], "-ref is spelled --ref here"),
        (["rpe", "r.tum", "e.tum", "-delta", "1"], "-delta is spelled --delta here"),
        (["rpe", "r.tum", "e.tum", "-delta-unit", "m"], "-delta-unit is spelled --delta-unit here"),
        (["ape", "r.tum", "e.tum", "-t_start", "5"], "-t_start is spelled --t-start here"),
        (["ape", "r.tum", "e.tum", "-dpi", "90"], "-dpi is spelled --dpi here"),
    ],
)
def test_our_flags_with_one_hyphen_are_not_taken_for_evos_letter_and_value(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Our flags of r, d, u, t typed with one hyphen were split as evo's -r -d -u -t with
    their value joined: `traj E -ref R` was told "here: ape --relation ef", `rpe -delta 1`
    "here: --delta elta"."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(argv)
    assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs {argv[0]}: {said}"


def test_a_flag_pasted_with_a_typographic_dash_is_answered(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A page turned ``--align`` into ``\u2014align``: ``ape R E \u2014align se3`` took both
    words for estimates and said '\u2014align: no such file' (exit 1)."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", "\u2014align", "se3", "\u2013max_diff", "0.1"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs ape: \u2014align \u2013max_diff are typed with dashes "
        "(U+2014, U+2013), not hyphens: --align --max-diff"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["ape", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"],
        [
            "drift",
            "example:fr1_xyz/groundtruth.tum",
            "example:fr1_xyz/rgbdslam.tum",
            "--lengths",
            "1",
        ],
        ["traj", "example:fr1_xyz/rgbdslam.tum"],
    ],
    ids=["ape", "drift", "traj"],
)
def test_plot_to_standard_output_is_the_png_alone(
    argv: list[str], capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    """``ape R E --plot -`` was answered "--plot is a switch in evo" (``-`` taken for a
    flag), and ``--plot=-`` wrote the table and the PNG together on standard output."""
    assert main([*argv, "--plot", "-"]) == 0
    captured = capsysbinary.readouterr()
    assert captured.out.startswith(b"\x89PNG\r\n\x1a\n")
    assert captured.out.endswith(b"IEND\xaeB`\x82")
    assert b"poses" in captured.err  # the table, on standard error
    assert b"wrote -" not in captured.err
    assert main([*argv, "--plot", "-", "--json"]) == 2
    assert capsysbinary.readouterr().err == (
        b"ERROR: --json and --plot - both write to standard output; give --plot a file\n"
    )


_PLOT_ON_A_TERMINAL = (
    "ERROR: --plot - writes the figure's PNG bytes to standard output, which is a terminal: "
    "redirect it (--plot - > plot.png, or | display) or give --plot a file name"
)


@pytest.mark.parametrize(
    "argv",
    [
        ["ape", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"],
        ["rpe", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"],
        ["drift", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"],
        ["traj", "example:fr1_xyz/rgbdslam.tum"],
        ["res", str(Path(__file__).parents[1] / "data" / "evo_results" / "fr1_xyz_ape_se3.zip")],
    ],
    ids=["ape", "rpe", "drift", "traj", "res"],
)
def test_plot_to_standard_output_on_a_terminal_is_refused_in_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--plot -`` with standard output on a terminal wrote the PNG's bytes onto the
    screen: refused before any work, as gzip refuses to, saying to redirect or name a file."""
    terminal = Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    assert main([*argv, "--plot", "-"]) == 1
    assert capsys.readouterr().err == _PLOT_ON_A_TERMINAL + "\n"
    assert terminal.getvalue() == ""


def test_plot_to_standard_output_on_a_real_terminal_writes_no_png(tmp_path: Path) -> None:
    """The same through a pseudo-terminal, as a shell runs it: no PNG byte reaches it."""
    leader, follower = pty.openpty()
    try:
        argv = ["traj", "example:fr1_xyz/rgbdslam.tum", "--plot", "-"]
        done = subprocess.run(  # noqa: S603 - this interpreter, fixed arguments
            [sys.executable, "-m", "robot_msgs", *argv],
            stdout=follower,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            timeout=60,
            check=False,
        )
        os.set_blocking(leader, False)
        try:
            shown = os.read(leader, 1 << 20)
        except BlockingIOError:  # nothing was written to the terminal
            shown = b""
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 1
    assert done.stderr.decode() == _PLOT_ON_A_TERMINAL + "\n"
    assert b"PNG" not in shown


def test_a_flags_value_with_a_typographic_dash_is_no_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape R E --label \u2014offset`` names the estimate "\u2014offset" (a value, as argparse
    reads it): it was refused as '\u2014offset is typed with a dash ...: --offset'."""
    monkeypatch.chdir(tmp_path)
    for args in (
        ["--label", "\u2014offset"],
        ["--lab", "\u2212offset"],
        ["--plot", "\u2014align"],
    ):
        with pytest.raises(SystemExit, match=r"^2$"):
            # a positional after the flags: argparse's refusal, after the hints found none
            main(["ape", "r.tum", "e.tum", *args, "\u2014x"])
        assert "typed with a dash" not in capsys.readouterr().err, args


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["-av"], "-av is evo's; here: --align se3; -v: the table is printed"),
        (["-vsa"], "-vsa is evo's; here: --align sim3; -v: the table is printed"),
        (["-ap"], "-ap is evo's; here: --align se3 --plot FILE"),
        (["--plot-mode", "xz"], "--plot_mode is evo's; here: --plot-plane xz"),
        (["--t-max-diff=0.02"], "--t_max_diff is evo's; here: --max-diff 0.02"),
        (["--all-pairs"], "--all-pairs is rpe's, not ape's"),  # ours, not evo's
    ],
)
def test_evos_switches_in_any_cluster_and_its_flags_with_hyphens_are_answered(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """evo's switches clustered as argparse allows, and its flags typed with hyphens.

    Only -va, -as, -sa and -vas were answered (`-av`, `-vap`: "unrecognized arguments"),
    and evo's flags typed with our hyphens (`--plot-mode xz`) were unrecognized too.
    """
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", *words])
    assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs ape: {said}"


def test_another_commands_answer_beside_the_commands_own_is_said_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An answer naming another command stands apart from those of the command typed.

    `traj -as --n_to_align 10 -p` was told "here: --align sim3 ape --n-align 10 --plot
    FILE", which reads as one ape command; traj had no --n-align then, and has no
    --project-to-plane (evo_traj's --project_to_plane) now. Its own flag is said with the
    others: --t_offset, sent to `ape --offset` until traj had --offset.
    """
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["traj", "e.tum", "--ref", "r.tum", "-as", "--project_to_plane", "xy", "-p"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs traj: -as --project_to_plane -p are evo's; here: --align sim3 "
        "--plot FILE; --project_to_plane: ape --project-to-plane xy"
    )
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["traj", "e.tum", "--ref", "r.tum", "-as", "--t_offset", "10", "-p"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs traj: -as --t_offset -p are evo's; here: --align sim3 "
        "--offset 10 --plot FILE"
    )
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["traj", "e.tum", "--ref", "r.tum", "-as", "--n_to_align", "10"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs traj: -as --n_to_align are evo's; here: --align sim3 --n-align 10"
    )


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["-vv"], "-vv is evo's; -v: the table is printed"),
        (["-pp"], "-pp is evo's; here: --plot FILE"),
        (["-av", "-va"], "-av -va are evo's; here: --align se3; -v: the table is printed"),
        (["-a", "-s", "-v"], "-a -s -v are evo's; here: --align sim3; -v: the table is printed"),
    ],
)
def test_a_cluster_of_evos_switches_is_said_as_typed_and_once(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cluster split into its letters is named as the user typed it, each answer once.

    `-vsa` was told "-s -a -v are evo's", letters in an order nobody typed, and `-vv`
    "-v -v are evo's; -v: the table is printed; -v: the table is printed".
    """
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "r.tum", "e.tum", *words])
    assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs ape: {said}"


def test_another_commands_answer_said_apart_leaves_the_idle_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An answer said apart is said without its aside, as the others are.

    `doctor R E -p --t_max_diff 0.1 -v` was told "...; -p: ape --plot FILE": the line
    was cut at the width from -p's aside "(a file; no window)" on, -v's answer with it.
    """
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["doctor", "r.tum", "e.tum", "-p", "--t_max_diff", "0.1", "-v"])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs doctor: -p --t_max_diff -v are evo's; here: --max-diff 0.1; "
        "-p: ape --plot FILE; -v: the table is printed"
    )


# (command, the TUM RGB-D scripts' words after `REF EST`, the error line after "ERROR: robot-msgs COMMAND: ")
TUM_LINES = [
    (  # evaluate_ate.py's habits; --offset and --plot are ours too (same meaning);
        # the script always fits SE(3), ours aligns nothing unless told: --align se3
        "ape",
        [*("--offset", "0.0", "--scale", "1.0", "--max_difference", "0.02"), "--verbose"],
        (
            "--scale --max_difference --verbose are TUM's; here: --transform-left SCALE_FILE "
            "--sync one-to-one --max-diff 0.02 --align se3; --verbose: the table is printed; "
            "SCALE_FILE holds the 4x4 diag(1.0, 1.0, 1.0, 1): [[1.0,0,0,0],[0,1.0,0,0],[0,0,1.0,0],"
            "[0,0,0,1]]"
        ),
    ),
    (  # beside --save FILE.json: the matrix's file is named apart, not "FILE" of either
        "ape",
        ["--scale", "2", "--save_associations", "pairs.txt"],
        (
            "--scale --save_associations are TUM's; here: --transform-left SCALE_FILE "
            "--save pairs.json --align se3; SCALE_FILE holds the 4x4 diag(2, 2, 2, 1): "
            "[[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,1]]"
        ),
    ),
    (  # no number after --scale: the matrix is said with s
        "ape",
        ["--scale"],
        (
            "--scale is TUM's; here: --transform-left SCALE_FILE --align se3; SCALE_FILE holds the 4x4 "
            "diag(s, s, s, 1): [[s,0,0,0],[0,s,0,0],[0,0,s,0],[0,0,0,1]]"
        ),
    ),
    (
        "ape",
        ["--save_associations", "a.txt", "--plot", "f.png"],
        "--save_associations is TUM's; here: --save a.json --align se3",
    ),
    (  # an alignment typed is kept: no second --align
        "ape",
        ["--align", "sim3", "--max_difference", "0.02"],
        "--max_difference is TUM's; here: --sync one-to-one --max-diff 0.02",
    ),
    (
        "ape",
        ["--no_align", "--max_difference", "0.02"],
        (
            "--no_align --max_difference are evo's, TUM's; here: --sync one-to-one "
            "--max-diff 0.02; --no_align: it is the default"
        ),
    ),
    (
        "rpe",
        ["--max_difference", "0.02"],
        "--max_difference is TUM's; here: --sync one-to-one --max-diff 0.02",
    ),
    (  # evaluate_rpe.py's
        "rpe",
        ["--fixed_delta", "--delta", "1", "--delta_unit", "s", "--verbose"],
        (
            "--fixed_delta --delta_unit --verbose are TUM's; here: --protocol tum "
            "--delta-unit s; --verbose: the table is printed"
        ),
    ),
    # evaluate_rpe.py's default unit is s, ours evo's f: said unless a unit is typed
    ("ape", ["--fixed_delta"], "--fixed_delta is TUM's; here: rpe --protocol tum --delta-unit s"),
    (
        "drift",
        ["--fixed_delta"],
        "--fixed_delta is TUM's; here: rpe --protocol tum --delta-unit s",
    ),
    (
        "rpe",
        ["--fixed_delta", "--delta", "1"],
        "--fixed_delta is TUM's; here: --protocol tum --delta-unit s",
    ),
    (
        "rpe",
        ["--fixed_delta", "--delta_unit", "m"],
        "--fixed_delta --delta_unit are TUM's; here: --protocol tum --delta-unit m",
    ),
    ("rpe", ["--fixed_delta", "--delta-unit", "f"], "--fixed_delta is TUM's; here: --protocol tum"),
    (  # TUM's default mode, no --fixed_delta: random pairs of any two poses, not offered
        "rpe",
        ["--max_pairs", "10000"],
        (
            "--max_pairs is TUM's; here: --protocol tum --delta-unit s; TUM without "
            "--fixed_delta pairs any two poses, 10000 drawn at random (seed 0): none here, "
            "as its number changes with the draw"
        ),
    ),
    (  # --max_pairs 0: every two poses, no draw
        "ape",
        ["--max_pairs=0", "--delta_unit", "m"],
        (
            "--max_pairs --delta_unit are TUM's; here: rpe --protocol tum --delta-unit m; "
            "TUM without --fixed_delta pairs every two poses, any span apart: none here"
        ),
    ),
    (  # with --fixed_delta, TUM draws only past --max_pairs pairs; ours keeps every one
        "rpe",
        ["--fixed_delta", "--max_pairs", "10000"],
        (
            "--fixed_delta --max_pairs are TUM's; here: --protocol tum --delta-unit s; "
            "--max_pairs: every pair is taken"
        ),
    ),
    (
        "ape",
        ["-a", "--max_difference", "0.02"],
        "-a --max_difference are evo's, TUM's; here: --align se3 --sync one-to-one --max-diff 0.02",
    ),
]


@pytest.mark.parametrize(
    ("command", "words", "said"), TUM_LINES, ids=[" ".join(c[1]) for c in TUM_LINES]
)
def test_the_tum_scripts_flags_are_answered_as_tums_not_unrecognized(
    command: str, words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``evaluate_ate.py``'s --max_difference, --scale... were "unrecognized arguments"."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, "ref.txt", "est.txt", *words])
    err = capsys.readouterr().err
    assert err.startswith(f"usage: robot-msgs {command} ")
    assert err.strip().splitlines()[-1] == f"ERROR: robot-msgs {command}: {said}"


# (REF, EST, TUM's --scale, evaluate_ate.py's rmse and pair count): an own NumPy check of
# docs/definitions.md's evaluate_ate.py (stamps keyed last-row-wins, associate one-to-one
# under 0.02 s, estimate positions times s, Horn's fit), on the bundled fr1_xyz and on
# the evo test data's monocular ORB keyframes of fr2_desk (scale unknown to the estimate).
TUM_SCALED = [
    ("example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum", "2", 0.183374885, 786),
    ("fr2_desk_groundtruth.txt", "fr2_desk_ORB_kf_mono.txt", "2.5", 0.209977479, 122),
]


@pytest.mark.parametrize(("ref", "est", "scale", "rms", "n"), TUM_SCALED, ids=["fr1", "fr2"])
def test_tums_scale_answer_says_the_files_matrix_and_pasted_gives_the_scripts_number(
    ref: str,
    est: str,
    scale: str,
    rms: float,
    n: int,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """TUM's ``--scale s`` is answered with the file to write: diag(s, s, s, 1), pasteable.

    The answer said ``--transform-left MATRIX`` and nothing of what the file holds.
    """
    if not ref.startswith("example:"):
        folder: Path = request.getfixturevalue("evo_data")
        ref, est = str(folder / ref), str(folder / est)
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", ref, est, "--scale", scale, "--max_difference", "0.02"])
    line = capsys.readouterr().err.strip().splitlines()[-1]
    here, holds = line.split("; here: ")[1].split("; SCALE_FILE holds ")
    diag, matrix = holds.split(": ")
    assert diag == f"the 4x4 diag({scale}, {scale}, {scale}, 1)"
    (tmp_path / "scale.txt").write_text(matrix)
    pasted = here.replace("SCALE_FILE", str(tmp_path / "scale.txt")).split()
    assert main(["ape", ref, est, *pasted, "--json"]) == 0
    signal = json.loads(capsys.readouterr().out)["signals"][0]
    assert (signal["stats"]["rms"], signal["stats"]["n"]) == (pytest.approx(rms, abs=1e-9), n)


@pytest.mark.parametrize(
    ("typed", "s"),
    [("2.", 2.0), (".5", 0.5), ("+2", 2.0), ("02", 2.0), ("1_000", 1000.0), ("2.50", 2.5)],
)
def test_tums_scale_typed_as_json_does_not_write_it_is_said_so_the_file_is_read(
    typed: str, s: float, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TUM's ``float()`` reads ``--scale 2.``; said as typed, the file was refused as JSON."""
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", ref, est, "--scale", typed])
    matrix = capsys.readouterr().err.strip().splitlines()[-1].rsplit(": ", 1)[1]
    (tmp_path / "scale.txt").write_text(matrix)
    assert main(["ape", ref, est, "--transform-left", str(tmp_path / "scale.txt"), "--json"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["transform_left"] == [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1]


def test_tums_max_difference_answered_for_ape_gives_evaluate_ate_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The answer, pasted, gives evaluate_ate.py's rmse: 0.013473468 m (the check above).

    Without ``--align se3`` (the script always fits it) the line gave 0.0201 m.
    """
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", ref, est, "--max_difference", "0.02"])
    answer = capsys.readouterr().err.strip().splitlines()[-1].split("; here: ")[1]
    assert main(["ape", ref, est, *answer.split(), "--json"]) == 0
    signal = json.loads(capsys.readouterr().out)["signals"][0]
    assert signal["stats"]["rms"] == pytest.approx(0.013473468, abs=1e-9)


def test_evos_transform_flags_are_answered_with_the_order_they_apply_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--transform_left T` was answered `--transform-left T` alone, though evo_traj moves
    its poses by T after -a and ours moves them before --align. The answer says it, and
    its claim holds: with --align se3 a rigid left transform (45 deg of yaw, (0.3, -0.2,
    0.1) m) leaves fr1_xyz's APE at evo_ape -a's rmse, 0.013470 m (evo 1.38.1); evo_traj
    -a --transform_left T saved poses 0.725 m from the reference."""
    for flag in ("--transform_left", "--transform_right"):
        with pytest.raises(SystemExit, match=r"^2$"):
            main(["traj", "e.tum", "--ref", "r.tum", flag, "t.json"])
        assert (
            capsys.readouterr()
            .err.splitlines()[-1]
            .endswith(
                "; evo_traj applies the transform after aligning, ours before --align: an "
                "--align se3 fit absorbs a rigid left transform"
            )
        )
    half = math.sqrt(0.5)
    turn = {"x": 0.3, "y": -0.2, "z": 0.1, "qx": 0.0, "qy": 0.0, "qz": 0.0, "qw": 1.0}
    turn |= {"qz": math.sqrt(0.5 - 0.5 * half), "qw": math.sqrt(0.5 + 0.5 * half)}  # 45 deg
    (tmp_path / "t.json").write_text(json.dumps(turn))
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    rms = []
    for extra in ([], ["--transform-left", str(tmp_path / "t.json")]):
        assert main(["ape", gt, est, "--align", "se3", "--json", *extra]) == 0
        rms.append(json.loads(capsys.readouterr().out)["signals"][0]["stats"]["rms"])
    assert rms[0] == pytest.approx(0.013470, abs=5e-7)
    assert rms[1] == pytest.approx(rms[0], rel=1e-9)


# evo's flags misspelt as evo users misspell them (command, the typo's words, evo's flag).
# evo_ape 1.38.1 takes --plot_mod, --t_max_dif and --correct_scal as argparse's
# abbreviations of its flags and refuses --align_orign and --pose_relaton.
EVO_TYPOS = [
    ("ape", ["--align_orign"], "--align_origin"),
    ("ape", ["--plot_mod", "xz"], "--plot_mode"),
    ("ape", ["--plot-mod", "xz"], "--plot_mode"),
    ("rpe", ["--t_max_dif", "0.02"], "--t_max_diff"),
    ("rpe", ["--t_max_dif=0.02"], "--t_max_diff"),
    ("rpe", ["--pose_relaton", "angle_deg"], "--pose_relation"),
    ("rpe", ["--delta_unt", "m"], "--delta_unit"),
    ("ape", ["--correct_scal"], "--correct_scale"),
    ("traj", ["--full_chek"], "--full_check"),
    ("ape", ["--plot_markrs"], "--plot_markers"),
]


@pytest.mark.parametrize(
    ("command", "typed", "flag"), EVO_TYPOS, ids=[" ".join(c[1]) for c in EVO_TYPOS]
)
def test_a_misspelt_evo_flag_gets_the_answer_evos_flag_gets(
    command: str, typed: list[str], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelt flag was compared with ours alone: ``ape R E --plot_mod xz`` was asked
    "did you mean --plot?" (a file to write), ``--align_orign`` "--align, --align-window?",
    ``--correct_scal`` and ``--full_chek`` nothing. evo's flags are close names too, and the
    closest, evo's, is answered as evo's flag typed right is."""
    ref = "example:fr1_xyz/groundtruth.tum"
    inputs = [ref] if command == "traj" else [ref, ref]
    _, eq, value = typed[0].partition("=")
    right = [flag + eq + value, *typed[1:]]
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, *inputs, *right])
    answer = capsys.readouterr().err.splitlines()[-1].removeprefix(f"ERROR: robot-msgs {command}: ")
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, *inputs, *typed])
    last = capsys.readouterr().err.splitlines()[-1]
    head = f"ERROR: robot-msgs {command}: unrecognized arguments: {' '.join(typed)}"
    assert last == f"{head}; did you mean {flag}? {answer}"


def test_a_misspelt_evo_flag_is_answered_in_full_words(capsys: pytest.CaptureFixture[str]) -> None:
    """The whole line for two typos, written out: the value typed fills our flag's."""
    ref = "example:fr1_xyz/groundtruth.tum"
    cases = {
        ("ape", "--plot_mod", "xz"): (
            "unrecognized arguments: --plot_mod xz; did you mean --plot_mode? "
            "--plot_mode is evo's; here: --plot-plane xz"
        ),
        ("rpe", "--t_max_dif", "0.02"): (
            "unrecognized arguments: --t_max_dif 0.02; did you mean --t_max_diff? "
            "--t_max_diff is evo's; here: --max-diff 0.02"
        ),
    }
    for (command, *typed), said in cases.items():
        with pytest.raises(SystemExit, match=r"^2$"):
            main([command, ref, ref, *typed])
        assert capsys.readouterr().err.splitlines()[-1] == f"ERROR: robot-msgs {command}: {said}"


# Our flags without their hyphen: exactly as close to evo's flag of the same words
# (`tstart` to `t-start` and to `t_start`: 2 x 7 / 15, both).
OUR_TYPOS = [
    ("ape", "--tstart", "--t-start"),
    ("rpe", "--deltatol", "--delta-tol"),
    ("rpe", "--allpairs", "--all-pairs"),
    ("traj", "--transformleft", "--transform-left"),
]


@pytest.mark.parametrize(("command", "typed", "flag"), OUR_TYPOS, ids=[c[1] for c in OUR_TYPOS])
def test_a_typo_as_close_to_our_flag_as_to_evos_is_answered_with_ours(
    command: str, typed: str, flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape R E --tstart 3`` was told "did you mean --t_start? --t_start is evo's; here:
    --t-start 3", and ``--transformleft`` evo_traj's order of transforms besides: a tie
    between our flag and evo's went to evo's, as difflib orders ties by the alphabet
    backwards ('_' after '-'). The closest is evo's only when closer than ours."""
    ref = "example:fr1_xyz/groundtruth.tum"
    inputs = [ref] if command == "traj" else [ref, ref]
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, *inputs, typed, "3"])
    last = capsys.readouterr().err.splitlines()[-1]
    head = f"ERROR: robot-msgs {command}: unrecognized arguments: {typed} 3; did you mean "
    assert last.startswith(f"{head}{flag}"), last
    assert "evo" not in last


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--align", "se3", "--correct_scale"], "--correct_scale is evo's; here: --align sim3, not se3"),
        (["--align=se3", "-s"], "-s is evo's; here: --align sim3, not se3"),
        (["--align", "origin", "-s"], "-s is evo's; here: --align origin_scale, not origin"),
        (["--align", "none", "-s"], "-s is evo's; here: --align scale, not none"),
        (["--align", "sim3", "--correct_scale"], "--correct_scale is evo's; here: --align sim3 alone"),
        (["--align", "posyaw", "-s"], "-s is evo's; here: --align scale (-a -s: --align sim3)"),
    ],
)  # fmt: skip
def test_evos_scale_switch_beside_our_align_says_the_method_that_scales_it(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape R E --align se3 --correct_scale`` (the README's flag, then evo's habit) was
    told "here: --align scale": typed, that is --align given twice, and a scale alone is
    not what -a -s meant. Our --align's method with evo's scale is answered as one."""
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", "ref.txt", "est.txt", *words])
    assert capsys.readouterr().err.strip().splitlines()[-1] == f"ERROR: robot-msgs ape: {said}"
