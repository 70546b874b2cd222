"""The quaternion-order diagnosis: a w-first file read as TUM is said, with the other figure."""

from __future__ import annotations

import re
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.compare.alignment import Alignment
from robot_msgs.errors import DataWarning
from robot_msgs.evaluation import EvaluationSettings, ape, evaluate, rpe
from robot_msgs.evaluation.quaternion_order import quaternion_order_check, quaternion_order_mix_up
from robot_msgs.io import read_trajectory
from robot_msgs.rotations import matrix_from_quat_xyzw, quat_xyzw_multiply
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import quats_from_rotvecs, random_walk

if TYPE_CHECKING:
    from pathlib import Path


def _pair(seed: int = 0) -> tuple[PoseTrajectory, PoseTrajectory]:
    ref = random_walk(400, seed=seed, step_rad=0.05)
    jitter = quats_from_rotvecs(np.random.default_rng(seed).normal(size=(400, 3)) * 0.01)
    est = ref.replace(
        positions_xyz=ref.positions_xyz + 0.01,
        orientations_quat_xyzw=quat_xyzw_multiply(ref.orientations_quat_xyzw, jitter),
    )
    return ref, est


def reordered(traj: PoseTrajectory, columns: list[int]) -> PoseTrajectory:
    return traj.replace(orientations_quat_xyzw=traj.orientations_quat_xyzw[:, columns])


def test_the_correct_file_says_nothing() -> None:
    ref, est = _pair()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataWarning)
        result = ape(ref, est, settings=EvaluationSettings(align="se3"), relation="angle_deg")
    assert not any("quaternion-order" in note for note in result.notes)


def test_a_w_first_estimate_is_said_with_the_figure_for_the_other_order() -> None:
    ref, est = _pair()
    w_first = reordered(est, [3, 0, 1, 2])  # the file held w x y z; read as x y z w
    with pytest.warns(DataWarning, match=r"quaternion-order mix-up") as caught:
        wrong = ape(ref, w_first, settings=EvaluationSettings(align="se3"), relation="angle_deg")
    message = str(caught[0].message)
    assert "if the estimate's quaternions were w x y z (w first)" in message
    assert message in wrong.notes


def _median_relative_error_deg(ref: PoseTrajectory, est: PoseTrajectory) -> float:
    """The message's figure, by another road: SciPy rotations, pairs 1..256 rows apart."""
    from scipy.spatial.transform import Rotation

    r_ref = Rotation.from_quat(ref.orientations_quat_xyzw)
    r_est = Rotation.from_quat(est.orientations_quat_xyzw)
    errors, turns = [], []
    for lag in (1, 2, 4, 8, 16, 32, 64, 128, 256):
        d_ref = r_ref[:-lag].inv() * r_ref[lag:]
        d_est = r_est[:-lag].inv() * r_est[lag:]
        turns.append(d_ref.magnitude())
        errors.append((d_ref.inv() * d_est).magnitude())
    turn, error = np.concatenate(turns), np.concatenate(errors)
    return float(np.degrees(np.median(error[turn > np.radians(5.0)])))


def test_an_estimate_in_its_own_frame_is_judged_without_alignment() -> None:
    """Relative rotations do not see the world frame: the unaligned RPE case of issue 21."""
    ref, est = _pair(4)
    turn = matrix_from_quat_xyzw(quats_from_rotvecs(np.array([[0.2, -0.4, 1.0]])))[0]
    own = Alignment(method="se3", rotation=turn, translation_m=np.full(3, 5.0)).apply(est)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataWarning)
        rpe(ref, own)  # the right order in another frame: silent
    w_first = reordered(own, [3, 0, 1, 2])
    with pytest.warns(DataWarning, match=r"w x y z \(w first\)") as caught:
        rpe(ref, w_first)
    as_read = f"by {_median_relative_error_deg(ref, w_first):.3g} deg (median"
    fixed = f"{_median_relative_error_deg(ref, own):.3g} deg if the estimate's"
    assert as_read in str(caught[0].message)
    # The ratio is said as what it is, not "(median, 1.3 of the turn)" (a review).
    assert re.search(
        r"\(median; a median [\d.]+ times the turn between the poses compared\) as read",
        str(caught[0].message),
    )
    assert fixed in str(caught[0].message)


def test_the_other_mix_ups_are_said_too() -> None:
    ref, est = _pair(1)
    w_last = reordered(est, [1, 2, 3, 0])  # an x y z w file read as w x y z (EuRoC)
    with pytest.warns(DataWarning, match=r"estimate's quaternions were x y z w \(w last\)"):
        rpe(ref, w_last)
    # Neither side starts at the identity: which file is in the other order is not known.
    later = [
        side.replace(
            stamps_s=side.stamps_s[10:],
            positions_xyz=side.positions_xyz[10:],
            orientations_quat_xyzw=side.orientations_quat_xyzw[10:],
        )
        for side in (ref, est)
    ]
    with pytest.warns(DataWarning, match=r"or the reference's were w x y z \(w first\)"):
        ape(reordered(later[0], [3, 0, 1, 2]), later[1])


@pytest.mark.parametrize("columns", [[3, 0, 1, 2], [1, 2, 3, 0]])
def test_a_reference_in_the_other_order_is_said_against_an_estimate_in_its_own_frame(
    columns: list[int],
) -> None:
    """A w-first reference (EuRoC ground truth written as TUM) against a SLAM estimate in
    its own world frame said nothing: only the estimate was read in the other orders,
    and reordering is no rotation, so the estimate's reordered world frame did not
    cancel (fr2_desk: 0.96 and 1.68 of the turn, against 0.02 with the reference
    reordered; a review). Both sides are tried."""
    ref, est = _pair(4)
    turn = matrix_from_quat_xyzw(quats_from_rotvecs(np.array([[0.2, -0.4, 1.0]])))[0]
    own = Alignment(method="se3", rotation=turn, translation_m=np.full(3, 5.0)).apply(est)
    mixed = reordered(ref, columns)
    message = quaternion_order_check(mixed, own)
    assert message.startswith(
        "the orientations look like a quaternion-order mix-up: the rotations between poses "
        f"disagree with the reference's by {_median_relative_error_deg(mixed, own):.3g} deg"
    )
    layout = "w x y z (w first)" if columns[0] == 3 else "x y z w (w last)"
    fixed = _median_relative_error_deg(ref, own)
    assert f"as read, {fixed:.3g} deg if the reference's quaternions were {layout}" in message


def test_the_side_whose_first_pose_becomes_the_identity_is_named_alone() -> None:
    """Either side may be the file in the other order; a run's estimate starts at 0 0 0 1."""
    ref, est = _pair(1)  # the reference starts at the identity, the estimate near it
    with pytest.warns(DataWarning) as caught:
        ape(reordered(ref, [3, 0, 1, 2]), est)  # the reference's file held w x y z
    assert "as read, " in str(caught[0].message)
    assert str(caught[0].message).endswith(
        "if the reference's quaternions were w x y z (w first) (its first pose is then the "
        "identity); check the reference file's column order (TUM: qx qy qz qw, EuRoC: "
        "qw qx qy qz)"
    )
    ref, est = est, ref  # now the estimate starts at the identity
    with pytest.warns(DataWarning) as caught:
        ape(ref, reordered(est, [3, 0, 1, 2]))
    assert str(caught[0].message).endswith(
        "if the estimate's quaternions were w x y z (w first) where x y z w was expected (its "
        "first pose is then the identity); check the estimate file's column order (TUM: "
        "qx qy qz qw, EuRoC: qw qx qy qz)"
    )


@pytest.mark.parametrize("where", ["body", "world"])
def test_a_constant_frame_offset_is_not_taken_for_a_mix_up(where: str) -> None:
    ref, est = _pair(2)
    turn = quats_from_rotvecs(np.array([[0.0, np.pi / 2, 0.0]]))  # 90 deg
    q = est.orientations_quat_xyzw
    offset = quat_xyzw_multiply(q, turn) if where == "body" else quat_xyzw_multiply(turn, q)
    moved = est.replace(orientations_quat_xyzw=offset)
    assert quaternion_order_check(ref, moved) == ""


def test_origin_alignment_is_refitted_for_the_other_order() -> None:
    ref, est = _pair(3)
    turn = matrix_from_quat_xyzw(quats_from_rotvecs(np.array([[0.2, -0.4, 1.0]])))[0]
    world = Alignment(method="se3", rotation=turn, translation_m=np.zeros(3)).apply(est)
    with pytest.warns(DataWarning, match=r"quaternion-order mix-up"):
        ape(ref, reordered(world, [3, 0, 1, 2]), settings=EvaluationSettings(align="origin"))


@pytest.mark.evo_data
def test_the_w_first_copy_of_a_tum_estimate_triggers_the_warning(
    evo_data: Path, tmp_path: Path
) -> None:
    source = evo_data / "freiburg1_xyz-rgbdslam.txt"
    rows = [line.split() for line in source.read_text(encoding="utf-8").splitlines()]
    w_first = tmp_path / "w_first.txt"
    w_first.write_text(
        "\n".join(" ".join([*r[:4], r[7], *r[4:7]]) for r in rows if r and r[0] != "#") + "\n",
        encoding="utf-8",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # the files' 4-decimal quaternions
        ref = read_trajectory(evo_data / "freiburg1_xyz-groundtruth.txt")
        est = read_trajectory(source)
        wrong = read_trajectory(w_first)
    settings = EvaluationSettings(align="se3")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataWarning)
        right = ape(ref, est, settings=settings, relation="angle_deg")
    with pytest.warns(DataWarning, match=r"as read, [0-9.]+ deg if the estimate's quaternions"):
        mixed = ape(ref, wrong, settings=settings, relation="angle_deg")
    assert mixed.stats["angle_deg"].rms == pytest.approx(164.065, abs=1e-3)  # the issue's ~164
    assert right.stats["angle_deg"].median == pytest.approx(2.0, abs=0.01)


@pytest.mark.evo_data
def test_unaligned_rpe_per_metre_on_a_w_first_copy_warns_naming_the_order(
    evo_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: 1.084 m (93x the file's 0.0117 m) was printed without a word."""
    from robot_msgs.cli import main

    rows = [
        line.split()
        for line in (evo_data / "fr2_desk_ORB.txt").read_text(encoding="utf-8").splitlines()
    ]
    w_first = tmp_path / "w_first.txt"
    w_first.write_text(
        "\n".join(" ".join([*r[:4], r[7], *r[4:7]]) for r in rows if r and r[0] != "#") + "\n",
        encoding="utf-8",
    )
    ref = str(evo_data / "fr2_desk_groundtruth.txt")
    argv = ["rpe", ref, str(w_first), "--delta", "1", "--delta-unit", "m"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "1.08435" in out  # the figure, unaligned as the user ran it
    warning = next(line for line in err.splitlines() if "quaternion-order" in line)
    assert "w x y z (w first) where x y z w was expected" in warning
    # ORB-SLAM's estimate starts at 0 0 0 1: its file is the one in the other order.
    assert "check the estimate file's column order" in warning


def test_the_warning_names_the_estimate() -> None:
    """`ape REF a.tum w_first.tum`: the warning did not say which estimate."""
    ref, est = _pair()
    w_first = reordered(est, [3, 0, 1, 2])
    settings = EvaluationSettings(align="se3")
    with pytest.warns(DataWarning, match=r"^w_first\.tum: the orientations look like") as caught:
        (result,) = evaluate(ref, w_first, settings, estimate_name="w_first.tum")
    assert str(caught[0].message) in result.notes
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataWarning)
        evaluate(ref, est, settings, estimate_name="right.tum")


def test_only_a_side_read_from_columns_is_reordered_and_named() -> None:
    """Against a KITTI reference (rotation blocks, no order) the estimate is named alone;
    with no side in columns nothing is said."""
    ref, est = _pair(4)
    w_first = reordered(est, [3, 0, 1, 2])
    message = quaternion_order_check(ref, w_first, columns=(False, True))
    assert "if the estimate's quaternions were w x y z (w first) where x y z w was expected;" in (
        message
    )
    assert "reference's" not in message.split(" as read, ")[1]
    assert quaternion_order_check(ref, w_first, columns=(False, False)) == ""


@pytest.mark.evo_data
@pytest.mark.parametrize("fault", ["mount", "x_flipped"])
def test_kitti_rotation_blocks_are_not_said_in_another_quaternion_order_by_ape(
    evo_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str
) -> None:
    """KITTI 00's ORB estimate with a camera mount (an optical frame, 120 deg, and 10 cm),
    or its x axis flipped, made `ape` say "quaternions in another order?" (101 and 80 deg
    as read, 4.12 deg reordered) for files of rotation blocks. The same poses written to
    TUM have columns whose order may be mixed up: there it is still said (`rpe --protocol
    tum` likewise)."""
    from robot_msgs.cli import main
    from robot_msgs.io import write_trajectory

    rows = np.loadtxt(evo_data / "KITTI_00_ORB.txt").reshape(-1, 3, 4)
    rotations, positions = rows[:, :, :3], rows[:, :, 3]
    if fault == "mount":  # the camera's optical frame (z forward, x right, y down) on the body
        turn = np.array([[0.0, 0.0, 1.0], [-1.0, 0.0, 0.0], [0.0, -1.0, 0.0]])
        positions = positions + rotations @ np.array([0.1, 0.0, 0.0])
        rotations = rotations @ turn
    else:
        flip = np.diag([-1.0, 1.0, 1.0])
        positions, rotations = positions @ flip, flip @ rotations @ flip
    est = tmp_path / "est.txt"
    np.savetxt(est, np.concatenate([rotations, positions[:, :, None]], axis=2).reshape(-1, 12))
    times = evo_data / "KITTI_00_gt_times.txt"
    kitti = [str(evo_data / "KITTI_00_gt.txt"), str(est)]
    tum = [str(tmp_path / "gt.tum"), str(tmp_path / "est.tum")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # KITTI's 7 printed digits
        for source, target in zip(kitti, tum, strict=True):
            traj = read_trajectory(source, times_path=times)
            write_trajectory(target, traj, "tum")
    timed = ["--ref-times", str(times), "--est-times", str(times)]
    tum_rpe = ["rpe", "--protocol", "tum"]  # its own matching, its own check
    for argv, said in (
        (["ape", *kitti], False),
        ([*tum_rpe, *timed, *kitti], False),
        (["ape", *tum], True),
        ([*tum_rpe, *tum], True),
    ):
        assert main(argv) == 0
        err = capsys.readouterr().err
        assert ("quaternion-order mix-up" in err) is said, (argv, err)


def test_a_side_read_from_rotation_blocks_is_never_reordered() -> None:
    """A KITTI trajectory (``orientations_from_matrices``) has no column order: whatever
    ``columns`` says, only the other side is reordered, and nothing when both are blocks."""
    ref, est = _pair(4)
    w_first = reordered(est, [3, 0, 1, 2])
    assert "the estimate's quaternions were w x y z" in quaternion_order_check(ref, w_first)
    blocks = w_first.replace(orientations_from_matrices=True)
    message = quaternion_order_check(ref, blocks)  # the reference reordered fixes it too
    assert "if the reference's quaternions were x y z w (w last);" in message
    assert "estimate's" not in message
    both = (ref.replace(orientations_from_matrices=True), blocks)
    assert quaternion_order_check(*both, columns=(True, True)) == ""


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("written_w_first", ["estimate", "reference"])
def test_a_turn_about_one_axis_names_the_side_written_w_first(
    seed: int, written_w_first: str
) -> None:
    """Yaw only (a planar robot), 5 deg of noise on the estimate's orientations, one side
    written w first: the whole orientations (after the positions' fit, here the identity)
    hold a constant offset rolled back on that side, and also with the reference rolled
    the other way; the least of the four named the wrong side, and its fix, in three of
    these four draws (a review). Expected: the side written so, by construction."""
    rng = np.random.default_rng(seed)
    t = np.arange(2_000, dtype=np.float64) * np.float64(0.05)
    yaw = 3.0 * np.sin(t / 9.0)
    zeros = np.zeros_like(yaw)
    q = np.stack([zeros, zeros, np.sin(yaw / 2), np.cos(yaw / 2)], axis=1)
    noise = quats_from_rotvecs(np.deg2rad(5.0) / np.sqrt(3.0) * rng.normal(size=(t.size, 3)))
    q_est = quat_xyzw_multiply(q, noise)
    if written_w_first == "estimate":
        q_est = np.roll(q_est, 1, axis=1)
    else:
        q = np.roll(q, 1, axis=1)
    p = np.zeros((t.size, 3))
    ref = PoseTrajectory(stamps_s=t, positions_xyz=p, orientations_quat_xyzw=q)
    est = PoseTrajectory(stamps_s=t, positions_xyz=p, orientations_quat_xyzw=q_est)
    text, fix = quaternion_order_mix_up(ref, est, world=np.eye(3))
    assert "after the fit of the positions" in text
    assert fix == written_w_first
