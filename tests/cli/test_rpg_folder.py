"""rpg_trajectory_evaluation's folder layout is answered with our files and flags."""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING

import pytest

from robot_msgs.cli import main

if TYPE_CHECKING:
    from pathlib import Path


def _rpg_folder(root: Path, config: str | None) -> Path:
    folder = root / "MH_01"
    folder.mkdir()
    (folder / "stamped_groundtruth.txt").write_text("# timestamp tx ty tz qx qy qz qw\n")
    (folder / "stamped_traj_estimate.txt").write_text("# timestamp tx ty tz qx qy qz qw\n")
    if config is not None:
        (folder / "eval_cfg.yaml").write_text(config)
    return folder


@pytest.mark.parametrize(
    ("command", "config", "flags"),
    [
        (
            "drift",
            "align_type: posyaw\nalign_num_frames: -1\n",
            "--protocol rpg --repeated-stamps all --align posyaw",
        ),
        # rpg's defaults: sim3, all frames; every row of a repeated stamp, as ape's
        ("drift", None, "--protocol rpg --repeated-stamps all --align sim3"),
        (
            "ape",
            "align_type: se3\nalign_num_frames: 50\n",
            "--sync one-to-one --max-diff 0.02 --repeated-stamps all --align se3 --n-align 50",
        ),
    ],
)
def test_an_rpg_folder_is_answered_with_its_two_files_and_eval_cfg_alignment(
    command: str, config: str | None, flags: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``drift FOLDER --protocol rpg`` said only "the following arguments are required: EST"."""
    folder = _rpg_folder(tmp_path, config)
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, str(folder), "--protocol", "rpg"][: 2 if command == "ape" else 4])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == (
        f"ERROR: robot-msgs {command}: {folder} is rpg_trajectory_evaluation's folder; here: "
        f"{folder}/stamped_groundtruth.txt {folder}/stamped_traj_estimate.txt {flags}"
    )


@pytest.mark.parametrize(
    ("frames", "flags"),
    [
        ("9" * 5000, " --n-align 9999"),  # the message cuts the run short
        ("-" + "9" * 5000, ""),
        ("000", ""),
        ("\u0661\u0662", ""),  # Arabic-Indic 12: no number rpg's YAML reader takes
    ],
)
def test_eval_cfg_frames_of_thousands_of_digits_are_said_not_a_crash(
    frames: str, flags: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """int() of 5000 digits raised ValueError past Python's limit (exit 70, "a bug")."""
    folder = _rpg_folder(tmp_path, f"align_type: se3\nalign_num_frames: {frames}\n")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["drift", str(folder)])
    err = capsys.readouterr().err
    assert f"--protocol rpg --repeated-stamps all --align se3{flags}" in err
    assert (" --n-align" in err) is bool(flags)


def test_a_huge_eval_cfg_is_read_only_at_its_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 1 GiB eval_cfg.yaml was read whole for the hint (42 s, 2.1 GB of memory)."""
    folder = _rpg_folder(tmp_path, "align_type: posyaw\n")
    with (folder / "eval_cfg.yaml").open("r+b") as file:
        file.truncate(1 << 40)  # sparse: 1 TiB said, nothing written
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["drift", str(folder)])
    assert (
        capsys.readouterr()
        .err.rstrip()
        .endswith("--protocol rpg --repeated-stamps all --align posyaw")
    )


def test_an_eval_cfg_that_is_a_fifo_or_a_folder_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Neither blocks nor fails: rpg's defaults are said, as without the file."""
    folder = _rpg_folder(tmp_path, None)
    os.mkfifo(folder / "eval_cfg.yaml")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["drift", str(folder)])
    assert (
        capsys.readouterr()
        .err.rstrip()
        .endswith("--protocol rpg --repeated-stamps all --align sim3")
    )


def test_a_word_too_long_for_a_file_name_is_no_rpg_folder(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A 300-character --label ended "NAME/stamped_groundtruth.txt: file name too long"."""
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    assert main(["ape", ref, est, "--label", "a" * 300]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: --label names the estimates in --plot's legend; give --plot FILE too"
    )


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("align_type: sim4", "'sim4'"),
        ("align_type: SIM3", "'SIM3'"),  # rpg compares as typed
        ("align_type: 'sim3x'", "'sim3x'"),  # was cut to its word characters, kept whole now
        ("align_type: scale", "'scale'"),  # ours, not rpg's: rpg asserts on it
        ("align_type:", "''"),  # YAML null: rpg's alignTrajectory knows no such method
    ],
)
def test_an_unknown_eval_cfg_align_type_is_said_with_the_file_key_value_and_rpgs_four(
    line: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``align_type: sim4`` was passed on as ``--align sim4``, which argparse then refused.

    rpg's ``alignTrajectory`` takes sim3, se3, posyaw and none and asserts on anything
    else; the answer names the file, the key, the value and those four, in its one line.
    """
    folder = _rpg_folder(tmp_path, f"{line}\nalign_num_frames: -1\n")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["drift", str(folder)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == (
        f"ERROR: robot-msgs drift: {folder} is rpg_trajectory_evaluation's folder; here: "
        f"{folder}/stamped_groundtruth.txt {folder}/stamped_traj_estimate.txt --protocol rpg "
        f"--repeated-stamps all --align TYPE; {folder}/eval_cfg.yaml: expected align_type sim3, se3, posyaw or none, "
        f"got {said}"
    )


def test_an_unknown_eval_cfg_align_type_keeps_align_num_frames_in_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # f1b171e answered 'align_type: sim4' with '--align TYPE' and dropped the file's
    # align_num_frames: 50, so the pasted answer, TYPE filled, fitted on every pose.
    folder = _rpg_folder(tmp_path, "align_type: sim4\nalign_num_frames: 50\n")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", str(folder)])
    here = capsys.readouterr().err.strip().splitlines()[-1].split("; here: ")[1]
    assert here.split("; ")[0].endswith(
        " --sync one-to-one --max-diff 0.02 --repeated-stamps all --align TYPE --n-align 50"
    )


@pytest.mark.parametrize(
    ("times", "flags"),
    [
        (
            "start_time_sec: 1403715535.0\nend_time_sec: 1403715590\n",
            " --t-start 1403715535.0 --t-end 1403715590",
        ),
        ("start_time_sec: 12.5 # after take-off\n", " --t-start 12.5"),
        ("end_time_sec: 190\n", " --t-end 190"),
        ("end_time_sec: 1.0e+2\nstart_time_sec: -3\n", " --t-start -3 --t-end 1.0e+2"),
        ("end_time_sec: 1e2\n", ""),  # YAML 1.1 reads a string: rpg's float < str, never cut
        ("start_time_sec: " + "9" * 5000 + "\n", ""),  # inf as a float: said by no flag
        ("start_time_sec: soon\n", ""),  # rpg's float() comparison takes no word
        ("", ""),
    ],
)
def test_an_rpg_folder_start_end_time_yaml_gives_the_time_range(
    times: str, flags: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rpg cuts its evaluation to start_end_time.yaml's range; the hint left it out.

    Without the range the lengths are 10..50 % of another path (EuRoC V1_02 with
    start_time_sec 1403715535, end_time_sec 1403715590: 54.08 m, not 75.89 m).
    """
    folder = _rpg_folder(tmp_path, "align_type: posyaw\nalign_num_frames: -1\n")
    (folder / "start_end_time.yaml").write_text(times)
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["drift", str(folder)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    said = f"--protocol rpg --repeated-stamps all --align posyaw{flags}"
    if flags:
        said += (
            "; rpg drops matches outside the range after associating, we cut the reference first"
        )
    assert last.endswith(said), last


def test_a_flag_value_that_names_an_rpg_folder_is_no_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Beside a folder named ``rpg``, ``drift REF EST --protocol rpg`` (the command the
    folder's answer gives) was refused with that answer again: ``rpg`` was read as an input."""
    folder = tmp_path / "rpg"
    folder.mkdir()
    path = "".join(f"{t} {math.cos(t / 9)} {math.sin(t / 9)} {t / 50} 0 0 0 1\n" for t in range(60))
    for name in ("stamped_groundtruth.txt", "stamped_traj_estimate.txt"):
        (folder / name).write_text(path, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    argv = ["drift", "rpg/stamped_groundtruth.txt", "rpg/stamped_traj_estimate.txt"]
    assert main([*argv, "--protocol", "rpg", "--quiet"]) == 0
    assert "rpg_trajectory_evaluation's folder" not in capsys.readouterr().err
    with pytest.raises(SystemExit, match=r"^2$"):  # as an input it is still answered
        main(["drift", "rpg", "--protocol", "rpg"])
    assert "rpg is rpg_trajectory_evaluation's folder" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["ape", "drift"])
def test_an_rpg_folder_of_trials_is_answered_with_every_trial(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rpg's ``--mul_trials 12`` reads ``stamped_traj_estimate0.txt`` .. ``11.txt``.

    The answer named ``...estimate0.txt`` alone, the other 11 trials unsaid (and by
    sorting names, ``...estimate10.txt`` came before ``...estimate2.txt``); ``ape`` takes
    them all at once, ``drift`` one at a time.
    """
    folder = tmp_path / "MH_01"
    folder.mkdir()
    for name in ["stamped_groundtruth.txt"] + [f"stamped_traj_estimate{k}.txt" for k in range(12)]:
        (folder / name).write_text("# timestamp tx ty tz qx qy qz qw\n")
    (folder / "stamped_traj_estimate_old.txt").write_text("")  # no trial: rpg never reads it
    with pytest.raises(SystemExit, match=r"^2$"):
        main([command, str(folder)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    trials = " ".join(f"{folder}/stamped_traj_estimate{k}.txt" for k in range(12))
    if command == "ape":
        assert f"here: {folder}/stamped_groundtruth.txt {trials} --sync" in last, last
    else:
        first = f"{folder}/stamped_traj_estimate0.txt"
        assert f"here: {folder}/stamped_groundtruth.txt {first} --protocol rpg" in last, last
        assert last.endswith(
            "; 12 trials (stamped_traj_estimate0.txt .. 11.txt): drift takes one EST, "
            "run it once per trial"
        ), last


@pytest.mark.parametrize("given", ["results", "results/laptop", "results/laptop/vio"])
def test_report_of_an_rpg_results_tree_names_its_folders_and_the_manifest(
    given: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """analyze_trajectories.py's ``<platform>/<alg>/<platform>_<alg>_<dataset>/`` tree.

    ``report``/``bench`` of it said only "no runs found (expected
    ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>)", with no word of the rpg folders
    there nor of the manifest's ``[[runs]]``, which take their files as they are.
    """
    for dataset in ("MH_01", "V1_02"):
        _rpg_folder(tmp_path, None).rename(tmp_path / f"laptop_vio_{dataset}")
        tree = tmp_path / "results" / "laptop" / "vio"
        tree.mkdir(parents=True, exist_ok=True)
        (tmp_path / f"laptop_vio_{dataset}").rename(tree / f"laptop_vio_{dataset}")
    root = tmp_path / given
    assert main(["report", str(root)]) == 1
    below = "laptop/vio/"[len(given) - len("results") :]
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"ERROR: {root}: no runs found (expected ROOT/ALGORITHM/SEQUENCE/TRIAL/estimate.<ext>); "
        f"{below}laptop_vio_MH_01, {below}laptop_vio_V1_02 are rpg_trajectory_evaluation "
        "folders: a manifest's [[runs]] entries name their files (estimate, reference)"
    )


def test_report_of_one_rpg_folder_says_it_is_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _rpg_folder(tmp_path, None)
    assert main(["report", str(folder)]) == 1
    assert (
        capsys.readouterr()
        .err.strip()
        .splitlines()[-1]
        .endswith(
            "estimate.<ext>); it is an rpg_trajectory_evaluation folder: a manifest's [[runs]] "
            "entries name their files (estimate, reference)"
        )
    )
    assert main(["report", str(tmp_path)]) == 1
    assert "; MH_01 is an rpg_trajectory_evaluation folder: " in capsys.readouterr().err


def test_an_rpg_folder_of_another_estimate_type_is_answered_with_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rpg's ``--est_types`` read ``stamped_pose_graph_estimate.txt`` and
    ``stamped_ba_estimate.txt`` too; its own example results (``euroc_vislam_mono``)
    hold ``stamped_ba_estimate0.txt`` .. ``9.txt`` alone. The answer named
    ``stamped_traj_estimate.txt``, a file not there."""
    folder = tmp_path / "laptop_vislam_ba_MH_01"
    folder.mkdir()
    for name in ("stamped_groundtruth.txt", "stamped_ba_estimate0.txt", "stamped_ba_estimate1.txt"):
        (folder / name).write_text("# timestamp tx ty tz qx qy qz qw\n")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", str(folder)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    ba = f"{folder}/stamped_ba_estimate0.txt {folder}/stamped_ba_estimate1.txt"
    assert f"here: {folder}/stamped_groundtruth.txt {ba} --sync" in last, last
    (folder / "stamped_traj_estimate.txt").write_text("# timestamp tx ty tz qx qy qz qw\n")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", str(folder)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert f"here: {folder}/stamped_groundtruth.txt {folder}/stamped_traj_estimate.txt " in last
    assert last.endswith("; also here: stamped_ba_estimate0.txt (rpg's --est_types ba_estimate)")


def test_an_rpg_trial_number_is_written_as_rpg_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rpg reads trial ``i`` as ``...estimate`` + ``str(i)`` + ``.txt``: ``007`` is none.

    Beside ``...estimate7.txt`` the answer gave trial 7 twice (``007`` and ``7``, both
    ``int`` 7) to ``ape``, and ``...estimate01.txt`` as a trial between 0 and 1.
    """
    folder = tmp_path / "MH_01"
    folder.mkdir()
    numbers = ["0", "01", "1", "007", "7", "10", "9" * 40, "\u0663"]  # and an Arabic-Indic 3
    for name in ["stamped_groundtruth.txt"] + [f"stamped_traj_estimate{n}.txt" for n in numbers]:
        (folder / name).write_text("# timestamp tx ty tz qx qy qz qw\n")
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", str(folder)])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    trials = " ".join(
        f"{folder}/stamped_traj_estimate{n}.txt" for n in ["0", "1", "7", "10", "9" * 40]
    )
    assert f"here: {folder}/stamped_groundtruth.txt {trials} --sync" in last, last
