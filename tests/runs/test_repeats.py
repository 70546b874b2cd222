"""``runs.repeats``: repeatability of runs without a reference, on each run's valid poses."""

from __future__ import annotations

import numpy as np
import pytest

from robot_msgs.compare.run_report import RunReport, TrackingLoss
from robot_msgs.evaluation import EvaluationSettings
from robot_msgs.runs.repeats import group_repeatability
from robot_msgs.trajectory import PoseTrajectory


def _run(
    name: str, xyz: np.ndarray, losses: tuple[TrackingLoss, ...] = ()
) -> tuple[RunReport, PoseTrajectory]:
    t = np.arange(xyz.shape[0]) / 10.0
    traj = PoseTrajectory(
        stamps_s=t, positions_xyz=xyz, orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (t.size, 1))
    )
    report = RunReport(name=name, success=True, algorithm="a", sequence="s", losses=losses)
    return report, traj


def test_the_poses_a_run_marked_lost_are_left_out() -> None:
    """A run 1 m off while its tracking log says lost moved the pairwise APE from 0.009 to
    0.24 m (a review): the APE of a run takes its valid poses, so does repeatability."""
    t = np.arange(200) / 10.0
    path = np.stack([t, np.sin(t), 0 * t], axis=1)
    off = path.copy()
    lost = (t >= 8.0) & (t < 9.5)
    off[lost, 0] += 1.0
    first, a = _run("r1", path)
    second, b = _run("r2", off, (TrackingLoss(start_s=8.0, end_s=9.5),))
    shared, notes = group_repeatability([first, second], {"r1": a, "r2": b}, EvaluationSettings())
    assert notes == []
    assert shared["r1"].pairwise.rms == pytest.approx(0.0, abs=1e-12)
    # Without the loss logged, the offset counts (hand value: 1 m on 15 of 200 poses).
    plain = second.replace(losses=())
    counted, _ = group_repeatability([first, plain], {"r1": a, "r2": b}, EvaluationSettings())
    assert counted["r1"].pairwise.rms == pytest.approx(np.sqrt(15 / 200))


def test_trials_on_different_clocks_are_left_out_with_a_note() -> None:
    """Trials with no stamps in common made ``report`` stop with the APE's error, where
    ``bench`` noted the group and went on (a review): both now take this note."""
    path = np.stack([np.arange(50) / 10.0, np.zeros(50), np.zeros(50)], axis=1)
    first, a = _run("r1", path)
    second, b = _run("r2", path)
    later = PoseTrajectory(
        stamps_s=b.stamps_s + 1000.0,
        positions_xyz=b.positions_xyz,
        orientations_quat_xyzw=b.orientations_quat_xyzw,
    )
    found, notes = group_repeatability(
        [first, second], {"r1": a, "r2": later}, EvaluationSettings()
    )
    assert found == {}
    assert len(notes) == 1
    assert notes[0].startswith("repeatability of a/s left out: ")
