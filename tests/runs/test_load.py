"""Reading a run's files: errors name the file and what to set where the run is declared."""

from __future__ import annotations

import re
import tracemalloc
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import DataWarning, FormatError, ValidationError
from robot_msgs.evaluation import ReadSettings
from robot_msgs.io import read_trajectory, write_trajectory
from robot_msgs.io.examples import resolve_path
from robot_msgs.runs import RunSpec, discover_runs, evaluate_run, load_run
from tests.cli.evaluation_files import write_kitti_off_so3

if TYPE_CHECKING:
    from pathlib import Path


def test_a_format_that_cannot_be_told_is_set_in_the_run_s_entry_not_by_a_flag(
    tmp_path: Path,
) -> None:
    estimate = tmp_path / "estimate.txt"
    estimate.write_text("1 2 3\n4 5 6\n")
    reference = tmp_path / "reference.txt"
    reference.write_text("1 2 3\n4 5 6\n")
    run = RunSpec(name="r", estimate=str(estimate))
    # bench and report read runs from manifests and folders: they have no --format.
    with pytest.raises(
        FormatError, match=r"choose the format \(estimate_format = tum, kitti or euroc\)$"
    ):
        load_run(run)
    (tmp_path / "good.tum").write_text("0 0 0 0 0 0 0 1\n")
    run = RunSpec(name="r", estimate=str(tmp_path / "good.tum"), reference=str(reference))
    with pytest.raises(
        FormatError, match=r"reference.txt: cannot tell the format: .*\(reference_format = tum"
    ):
        load_run(run)


def test_a_run_is_read_by_the_reading_rules_it_is_given(tmp_path: Path) -> None:
    """``report`` and ``bench`` read KITTI rows as given when the run settings say so."""
    run = RunSpec(
        name="r",
        estimate=str(write_kitti_off_so3(tmp_path / "est.txt", 1)),
        reference=str(write_kitti_off_so3(tmp_path / "gt.txt", 2)),
        estimate_format="kitti",
        reference_format="kitti",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # the blocks are off SO(3) on purpose
        nearest = load_run(run)
        given = load_run(run, reading=ReadSettings(kitti_rotations="as_given"))
    assert nearest.estimate is not None
    assert nearest.estimate.rotation_matrices is None
    assert given.estimate is not None
    assert given.reference is not None
    for traj, name in ((given.estimate, "est.txt"), (given.reference, "gt.txt")):
        printed = np.loadtxt(tmp_path / name).reshape(-1, 3, 4)[:, :, :3]
        assert traj.rotation_matrices is not None
        assert traj.rotation_matrices.tolist() == printed.tolist()  # the digits as printed


def test_an_estimate_linked_to_nothing_is_a_broken_input_naming_the_link(tmp_path: Path) -> None:
    """A dangling estimate link counted as "no estimate", the algorithm's failure (a
    review): like a missing named reference, it fails the run's evaluation by name."""
    folder = tmp_path / "orb" / "MH_01" / "1"
    folder.mkdir(parents=True)
    (folder / "estimate.tum").symlink_to(tmp_path / "moved" / "estimate.tum")
    [run] = discover_runs(tmp_path)
    said = (
        f"{folder / 'estimate.tum'}: the run's estimate is a symbolic link to "
        f"{tmp_path / 'moved' / 'estimate.tum'}, which does not exist ({folder})"
    )
    with pytest.raises(FormatError, match=f"^{re.escape(said)}$"):
        load_run(run)
    (folder / "estimate.tum").unlink()
    (folder / "estimate.tum").symlink_to("estimate.tum")  # itself: a loop
    with pytest.raises(FormatError, match=r"symbolic link to estimate\.tum, which is a loop"):
        load_run(run)
    (folder / "estimate.tum").unlink()
    # Past a file where a folder should be: not "does not exist" (any stat failure was)
    (tmp_path / "plain").write_text("")
    (folder / "estimate.tum").symlink_to(tmp_path / "plain" / "estimate.tum")
    with pytest.raises(FormatError, match=r"which cannot be reached \(Not a directory\)"):
        load_run(run)
    (folder / "estimate.tum").unlink()  # no estimate at all: the run's failure, read as none
    assert load_run(run).estimate is None


def test_an_estimate_without_a_newline_is_refused_without_being_held_whole(
    tmp_path: Path,
) -> None:
    """A 1 GiB sparse estimate (no newline) took 2.1 GB and 5.9 s in bench before the
    reader refused it at its first bytes (``ape`` of it: 34 MB): the check for a pose
    line read the file's first line whole. 64 MiB here held 129 MiB (its bytes and its
    text); read in pieces, the run fails by the reader's rule with under 16 MiB."""
    folder = tmp_path / "orb" / "MH_01" / "1"
    folder.mkdir(parents=True)
    estimate = folder / "estimate.tum"
    with estimate.open("wb") as handle:
        handle.truncate(64 << 20)  # sparse: no disk used
    [run] = discover_runs(tmp_path)
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match=r"estimate\.tum: not a text file \(a NUL byte"):
            load_run(run)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20
    # A comment longer than a piece is still one line: a pose after it is read, a file
    # of comments alone is no estimate (the run's failure, not an error).
    long_comment = "# " + "x" * 40_000 + "\n"  # 16 KiB pieces; a format is told in 64 KiB
    estimate.write_text(long_comment + "0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n")
    read = load_run(run).estimate
    assert read is not None
    assert len(read) == 2
    estimate.write_text(long_comment + "   \n# 0 0 0 0 0 0 0 1\n")
    assert load_run(run).estimate is None


def test_a_log_linked_to_nothing_fails_its_run_as_a_pipe_does(tmp_path: Path) -> None:
    """A tracking.csv linked to a moved file read as no log: 0 losses, unsaid (a review),
    where a log that is a pipe fails its run. Refused the same way, naming the link."""
    folder = tmp_path / "orb" / "MH_01" / "1"
    folder.mkdir(parents=True)
    (folder / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n")
    log = folder / "tracking.csv"
    log.symlink_to(tmp_path / "moved" / "tracking.csv")
    [run] = discover_runs(tmp_path)
    said = (
        f"{log}: the run's tracking log is a symbolic link to "
        f"{tmp_path / 'moved' / 'tracking.csv'}, which does not exist"
    )
    with pytest.raises(FormatError, match=f"^{re.escape(said)}$"):
        load_run(run)
    log.unlink()  # no log at all: none, as before
    assert load_run(run).tracking is None


def test_the_empty_and_cut_logs_of_a_crashed_run_are_read_as_written_and_it_fails_as_a_run(
    tmp_path: Path,
) -> None:
    """A run killed by SIGSEGV at 2.5 s left timing.csv empty (0 bytes) and tracking.csv
    cut mid-line: load_run refused the run, so report stopped (or, with --allow-partial,
    left it out of its algorithm's success rate, 2/2 where 2/3 succeeded); the guide
    reports the overall success rate, and the README ranks a crash as the run's result.
    Read as written: no timing log, the events before the cut line (lost at 1.0 s), each
    said in a warning; the run fails as it reported, killed by SIGSEGV."""
    folder = tmp_path / "orb" / "MH_01" / "1"
    folder.mkdir(parents=True)
    rows = [f"{0.1 * i:.1f} {0.1 * i:.1f} 0 0 0 0 0 1\n" for i in range(26)]
    (folder / "estimate.tum").write_text("".join(rows))
    (folder / "meta.json").write_text('{"exit_code": -11}')
    (folder / "timing.csv").write_text("")
    (folder / "tracking.csv").write_text("time_s,event\n1.0,lost\n2.0,reco")
    [run] = discover_runs(tmp_path)
    with pytest.warns(DataWarning) as seen:
        inputs = load_run(run)
    empty = "empty (0 bytes): read as no timing log, as a run that stopped before writing it"
    cut = (
        "the last line is cut (no newline at its end) and does not read: left out, as a run "
        "that stopped while writing it"
    )
    said = sorted(str(w.message) for w in seen)
    assert said == [f"{folder / 'timing.csv'}: {empty}", f"{folder / 'tracking.csv'}:3: {cut}"]
    assert inputs.timing is None
    assert inputs.tracking is not None
    assert inputs.tracking.stamps_s.tolist() == [1.0]
    report = evaluate_run(inputs).report
    assert report.failure == "killed by SIGSEGV (exit code -11)"
    assert [(loss.start_s, loss.recovered) for loss in report.losses] == [(1.0, False)]


def test_a_malformed_log_that_is_not_cut_short_still_fails_to_evaluate(tmp_path: Path) -> None:
    """Only an empty file or an unreadable last line without its newline is a log cut
    short: a bad row ended by its newline, or followed by others, is a broken input."""
    folder = tmp_path / "orb" / "MH_01" / "1"
    folder.mkdir(parents=True)
    (folder / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n")
    log = folder / "tracking.csv"
    [run] = discover_runs(tmp_path)
    for text in ("time_s,event\n1.0,lost\n2.0,reco\n", "time_s,event\n1.0,lots\n2.0,recovered"):
        log.write_text(text)
        with pytest.raises(FormatError, match=r"tracking\.csv:\d: column `event`: expected"):
            load_run(run)


@pytest.mark.parametrize("meta", [None, '{"exit_code": 0}'])
def test_the_cut_or_empty_log_of_a_run_that_reported_no_failure_still_fails_to_evaluate(
    tmp_path: Path, meta: str | None
) -> None:
    """Only a run that reported stopping (a failure, a non-zero exit code) is read on what
    it wrote: the estimate below reaches 2.5 s, the end, but its tracking log cut to
    ``2.0,reco`` (a copy cut short) read as lost at 1.0 s, not recovered, the
    algorithm's failure. Refused as before, naming the file and line; an empty log too."""
    folder = tmp_path / "orb" / "MH_01" / "1"
    folder.mkdir(parents=True)
    rows = [f"{0.1 * i:.1f} {0.1 * i:.1f} 0 0 0 0 0 1\n" for i in range(26)]
    (folder / "estimate.tum").write_text("".join(rows))
    if meta is not None:
        (folder / "meta.json").write_text(meta)
    log = folder / "tracking.csv"
    log.write_text("time_s,event\n1.0,lost\n2.0,reco")
    [run] = discover_runs(tmp_path)
    with pytest.raises(FormatError, match=r"tracking\.csv:3: column `event`: expected"):
        load_run(run)
    log.unlink()
    (folder / "timing.csv").write_text("")
    with pytest.raises(FormatError, match=r"timing\.csv:1: expected a header line"):
        load_run(run)


def test_w_first_on_a_euroc_estimate_is_refused_in_a_run_too(tmp_path: Path) -> None:
    """A run's ``w_first`` on a EuRoC file (w first as its format is) is refused, not read.

    WHY: as the command line's ``--w-first``: the EuRoC quaternions were reordered
    without a word (only KITTI's rotation blocks were refused).
    """
    poses = read_trajectory(resolve_path("example:fr1_xyz/rgbdslam.tum"))
    write_trajectory(tmp_path / "est.csv", poses)
    write_trajectory(tmp_path / "gt.tum", poses)
    run = RunSpec(name="r", estimate=str(tmp_path / "est.csv"), reference=str(tmp_path / "gt.tum"))
    with pytest.raises(ValidationError, match="got its orientations read from a EuRoC file"):
        load_run(run, reading=ReadSettings(w_first="estimate"))
    read = load_run(run, reading=ReadSettings(w_first="reference"))  # the TUM side
    assert read.reference is not None
    assert read.reference.orientations_quat_xyzw.tolist() == (
        poses.orientations_quat_xyzw[:, [1, 2, 3, 0]].tolist()
    )


def test_a_run_without_reference_reads_its_estimate_as_the_estimate_side(tmp_path: Path) -> None:
    """A run without ground truth: ``w_first="estimate"`` and the estimate's divisor apply.

    Its one input is read first, where the reference's side is read: it must not be.
    By hand: ``qw qx qy qz = 0.8 0 0 0.6`` is ``qx qy qz qw = 0 0 0.6 0.8``.
    """
    est = tmp_path / "est.tum"
    est.write_text("1000.5 1 2 3 0.8 0 0 0.6\n2000 0 0 0 1 0 0 0\n3000.25 0 0 1 0.6 0.8 0 0\n")
    run = RunSpec(name="r", estimate=str(est))
    read = load_run(run, reading=ReadSettings(w_first="estimate", stamp_divisors=(1.0, 1e3)))
    assert read.estimate is not None
    assert read.estimate.stamps_s.tolist() == [1.0005, 2.0, 3.00025]
    assert read.estimate.orientations_quat_xyzw[0].tolist() == [0.0, 0.0, 0.6, 0.8]
    plain = load_run(run, reading=ReadSettings(w_first="reference", stamp_divisors=(1e3, 1.0)))
    assert plain.estimate is not None
    assert plain.estimate.stamps_s.tolist() == [1000.5, 2000.0, 3000.25]
    assert plain.estimate.orientations_quat_xyzw[0].tolist() == [0.8, 0.0, 0.0, 0.6]
