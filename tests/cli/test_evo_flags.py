"""evo's flags are answered with ours, under the command's own usage (issue 21)."""

from __future__ import annotations

import pytest

from robot_msgs.cli import main
from robot_msgs.cli.evo_flags import EVO_FLAGS

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
    ("ape", ["--save_results", "a.zip"], "--save FILE.json"),
    ("ape", ["--n_to_align", "10"], "--n-align"),
    ("ape", ["--t_max_diff", "0.02"], "--max-diff"),
    ("ape", ["--t_max_diff=0.02"], "--max-diff"),
    ("rpe", ["--t_offset", "0.1"], "--offset"),
    ("ape", ["-va"], "--align se3"),
    ("traj", ["--save_as_tum"], "--save FILE.tum"),
    ("traj", ["-p"], "--plot FILE"),
]


@pytest.mark.parametrize(("command", "words", "ours"), CASES, ids=[" ".join(c[1]) for c in CASES])
def test_an_evo_flag_is_answered_with_ours_and_the_commands_usage(
    command: str, words: list[str], ours: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "ref.txt", "est.txt", *words])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: robot-msgs {command} ")
    last = err.strip().splitlines()[-1]
    flag = words[0].split("=")[0]
    assert last.startswith(f"robot-msgs {command}: error: {flag} is ")
    assert f"evo; here: {ours}" in last or f"evo's; here: {ours}" in last


def test_an_unknown_flag_shows_the_commands_usage_not_the_top_level_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["rpe", "ref.txt", "est.txt", "--bogus"])
    err = capsys.readouterr().err
    assert err.startswith("usage: robot-msgs rpe ")
    assert err.strip().endswith("robot-msgs rpe: error: unrecognized arguments: --bogus")


def test_every_answer_names_a_flag_of_ours_or_says_none_is_needed() -> None:
    for answer in EVO_FLAGS.values():
        assert answer.startswith(("--", "nothing:", "REF "))


def test_our_own_flags_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ape", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum",
                 "--align", "se3"]) == 0  # fmt: skip
    assert "APE" in capsys.readouterr().out
